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

/* A row gathered at rank 0 (buf, len: what sc_rank_result_pack made on a
 * rank) unpacked into rec->ranks[rec->nranks], which the caller made room
 * for, nranks then one more; its bytes are kept in rec->ranks_wire too, so
 * that results.pb copies them (sc_run_record_pack_phase) rather than
 * packing the row again.  What _unpack returns; rec as it was on error. */
int sc_phase_record_add_rank(struct sc_phase_record *rec, const uint8_t *buf, size_t len);

/* The whole results file, with raw histogram buckets (sparse). */
int sc_run_record_pack(const struct sc_run_record *rec, uint8_t **out,
		       size_t *len);
int sc_run_record_unpack(const uint8_t *buf, size_t len,
			 struct sc_run_record *rec);

/* Phase i of rec, sealed as a part of the results file: a run record
 * holding that phase alone and rec's rank0_peak_rss_bytes.  Appended to
 * the bytes of sc_run_record_pack of rec's phases before i (and the parts
 * of each of them after that), it makes a file that sc_run_record_join
 * and _unpack read back as rec up to phase i.  -EINVAL for a phase that
 * _unpack would refuse after the one before it. */
int sc_run_record_pack_phase(const struct sc_run_record *rec, uint32_t i, uint8_t **out,
			     size_t *len);

/* buf (len bytes, a results file) made in place into one packed run
 * record (*joined bytes of buf) for _unpack: its first part, as
 * sc_run_record_pack wrote it, and each part appended after it
 * (sc_run_record_pack_phase).  A last part cut short, or zeros, at the
 * end (the run stopped while appending it) is left out, its bytes in
 * *torn; *parts says how many were joined.  0, or -EBADMSG when buf is
 * not a results file, its first part is cut short or any part is damaged
 * (bytes changed). */
int sc_run_record_join(uint8_t *buf, size_t len, size_t *joined, uint32_t *parts,
		       size_t *torn);

/* Every packed buffer starts with a header of this many bytes that gives
 * its length, so a reader can check a file before reading all of it. */
#define SC_CODEC_HEADER_BYTES 12u

/* The whole length in bytes (header included) of the packed run record
 * whose first SC_CODEC_HEADER_BYTES bytes are hdr (len of them given).
 * 0, or -EBADMSG when they are not the start of a run record. */
int sc_run_record_length(const uint8_t *hdr, size_t len, uint64_t *total);

#endif
