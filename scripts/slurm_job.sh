#!/bin/bash
#SBATCH --job-name=ssdcluster
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=2
#SBATCH --exclusive
# ssdcluster across a Slurm allocation: sbatch scripts/slurm_job.sh CONFIG [OUTPUT]
# mpirun learns the nodes and the ranks per node from Slurm's environment
# and starts its daemons on the other nodes with srun; rank 0 (on the first
# node) reads CONFIG and writes OUTPUT (default ssdcluster-JOBID).
set -euo pipefail
config=${1:?usage: sbatch slurm_job.sh CONFIG [OUTPUT]}
out=${2:-ssdcluster-$SLURM_JOB_ID}
mpirun ssdcluster "$config" --output "$out"
