/* codec.h -- plan and results to and from protobuf bytes.
 *
 * Every _pack returns a malloc'd buffer the caller frees.  Every _unpack
 * checks what it reads (protobuf framing, enum ranges, indices, histogram
 * buckets, string lengths) and fills a caller-owned struct that the
 * matching _exit frees.  Return 0, -ENOMEM, or -EBADMSG for bytes that are
 * truncated, corrupt or inconsistent; _unpack also returns -EFBIG for
 * bytes that would take more memory to decode than real ones of their
 * size ever do (64 MiB + 1024 x their length, at most 2 GiB), and _pack
 * -EINVAL for a struct that unpack would refuse, and -EMSGSIZE past 4 GiB.
 *
 * Strings: proto3 cannot tell NULL from "", so a NULL string comes back as
 * "" (and an empty target `hosts` as NULL: every host).
 */
#ifndef SC_CODEC_H
#define SC_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "histogram.h"
#include "plan.h"
#include "result.h"

int sc_plan_pack(const struct sc_plan *plan, uint8_t **out, size_t *len);
int sc_plan_unpack(const uint8_t *buf, size_t len, struct sc_plan *plan);

/* A rank's summary as gathered at rank 0 (histograms travel separately,
 * reduced). */
int sc_rank_result_pack(const struct sc_rank_result *r, uint8_t **out,
			size_t *len);
int sc_rank_result_unpack(const uint8_t *buf, size_t len,
			  struct sc_rank_result *r);

/* The whole results file, with raw histogram buckets (sparse). */
int sc_run_record_pack(const struct sc_run_record *rec, uint8_t **out,
		       size_t *len);
int sc_run_record_unpack(const uint8_t *buf, size_t len,
			 struct sc_run_record *rec);

/* Every packed buffer starts with a header of this many bytes that gives
 * its length, so a reader can check a file before reading all of it. */
#define SC_CODEC_HEADER_BYTES 12u

/* The whole length in bytes (header included) of the packed run record
 * whose first SC_CODEC_HEADER_BYTES bytes are hdr (len of them given).
 * 0, or -EBADMSG when they are not the start of a run record. */
int sc_run_record_length(const uint8_t *hdr, size_t len, uint64_t *total);

#endif
