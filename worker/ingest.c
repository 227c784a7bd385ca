/* ingest.c -- training-data ingestion: random samples from a dataset, in
 * batches, with emulated accelerator compute (being written). */
#include <errno.h>
#include <stdio.h>

#include "job_priv.h"

int sc_ingest_job_setup(struct job *j, char *err, size_t errlen)
{
	(void)j;
	snprintf(err, errlen, "workload ingest is not built yet");
	return -ENOSYS;
}

void sc_ingest_job_run(struct job *j)
{
	(void)j;
}
