# training_lib.sh -- the training phase the training tests share.
#
#   . "$(dirname "$0")/training_lib.sh"   (from tests/cluster: ../integration/)
#   training_step_phase NAME [FILES [COMPUTE [LATENCY [EPOCHS [AU]]]]]
#       prints "  - name: NAME" and its keys (defaults: 144 files, 100ms,
#       100us, 1 epoch, AU 0.85); the caller adds search/runs keys after
#
# A step of one accelerator: a batch of 4 samples of 64 KiB (256 KiB),
# read by its reader one batch ahead (prefetch_size 1) while it computes;
# engine emulated, so the target's throttle sets the read time: k
# accelerators sharing T KiB/s read a step's batches in k x 256 / T s, and
# AU = min(1, compute / that) while the emulated latency is far below it.
training_step_phase() { # NAME [FILES [COMPUTE [LATENCY [EPOCHS [AU]]]]]
	cat <<YAML
  - name: $1
    workload: training
    engine: emulated
    emulate: {latency: ${4:-100us}}
    files: ${2:-144}
    samples_per_file: 1
    record_size: 64KiB
    batch: 4
    jobs: 1
    iodepth: 1
    prefetch_size: 1
    computation_time: ${3:-100ms}
    epochs: ${5:-1}
    au: ${6:-0.85}
    transfer_size: 64KiB
YAML
}
