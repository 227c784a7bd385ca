/* null.c -- completes every I/O at once and touches no data.
 *
 * It does what the other engines do minus the I/O itself (res = len, 0 for
 * fsync), so running a job on it measures the cost of the tool alone.
 */
#include "engine.h"

#include <stdint.h>

#include "fifo.h"

static int32_t null_io(const struct sc_engine *e, const struct sc_io *io)
{
	(void)e;
	return io->op == SC_OP_FSYNC ? 0 : (int32_t)io->len;
}

static int null_submit(struct sc_engine *e)
{
	return fifo_submit(e, null_io);
}

const struct sc_engine_ops sc_engine_null = {
    .name = "null",
    .flags = SC_ENGINE_F_NO_FILES,
    .create = fifo_create,
    .queue = fifo_queue,
    .submit = null_submit,
    .reap = fifo_reap,
    .destroy = fifo_destroy,
};
