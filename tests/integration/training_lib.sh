# training_lib.sh -- the training phase the search tests share.
#
#   . "$(dirname "$0")/training_lib.sh"   (from tests/cluster: ../integration/)
#   training_step_phase NAME   # prints "  - name: NAME" and its keys
#
# A step of one accelerator: a batch of 4 samples of 64 KiB (256 KiB) read
# by its reader one batch ahead (prefetch_size 1) while it computes 100 ms;
# engine emulated at 100 us an I/O, so the target's throttle sets the read
# time: k accelerators sharing T KiB/s read a step's batches in
# k x 256 / T s, and AU = min(1, 100 ms / that).  Threshold 0.85; 144
# files of one sample, one epoch.  The caller adds search/runs keys after.
training_step_phase() { # NAME
	cat <<YAML
  - name: $1
    workload: training
    engine: emulated
    emulate: {latency: 100us}
    files: 144
    samples_per_file: 1
    record_size: 64KiB
    batch: 4
    jobs: 1
    iodepth: 1
    prefetch_size: 1
    computation_time: 100ms
    epochs: 1
    au: 0.85
    transfer_size: 64KiB
YAML
}
