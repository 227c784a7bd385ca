/* torch_zip.h -- the container torch.save writes (PyTorch 1.13, a file
 * object as DLIO passes it), built around one tensor record of any size.
 *
 * torch.save({"t": int8 tensor of n bytes}, f) writes a zip archive, stored
 * (method 0), every entry with flags 0x0808 (data descriptor follows, UTF-8
 * names), zero time/date/CRC/sizes in the local header, the data of every
 * record aligned to 64 bytes by a "FB" extra field padded with 'Z':
 *
 *   archive/data.pkl  the pickle (protocol 2) of {"t": tensor}, the tensor
 *                     rebuilt by torch._utils._rebuild_tensor_v2 from the
 *                     persistent storage ('storage', CharStorage, '0',
 *                     'cpu', n)
 *   archive/data/0    the tensor's n bytes
 *   archive/version   "3\n"
 *   central directory, zip64 end of central directory, its locator, end of
 *   central directory
 *
 * Each record is followed by its data descriptor (CRC-32, sizes; 24 bytes
 * with 64-bit sizes when a record or an offset passes 4 GiB - 1, which also
 * puts a zip64 extra field in its local and central headers).  The file is
 * written as head (everything before the payload), payload, tail
 * (everything after it): the three writes torch.save's buffered writer
 * makes for one tensor larger than its 8 KiB buffer.  The CRC-32 of every
 * record is computed over its bytes the way torch computes it, so its CPU
 * cost per byte is torch's: torch 1.13's miniz calls a table-driven
 * slice-by-16 CRC (16 lookups in 16 tables of 256 words per 16 bytes; perf
 * shows it under torch.save in libtorch_cpu), and sc_tzip_crc32 is that
 * class of CRC (own code), not a carry-less-multiply one such as ISA-L's,
 * which runs about 8x faster.  Measured in one process on one tensor's
 * 128 MiB (2-vCPU VM, loaded): torch's 0.28-0.47 ns/B, ours 0.24-0.40
 * ns/B (0.85-0.97 of torch's per run), ISA-L's 0.04-0.07 ns/B.
 */
#ifndef SC_TORCH_ZIP_H
#define SC_TORCH_ZIP_H

#include <stddef.h>
#include <stdint.h>

#define SC_TZIP_ALIGN	 64u  /* every record's data starts at a multiple */
#define SC_TZIP_HEAD_MAX 512u /* head bytes: data.pkl record + data/0 header */
#define SC_TZIP_TAIL_MAX 768u /* tail bytes: version record + directory */
#define SC_TZIP_RECORDS	 3u   /* data.pkl, data/0, version */

/* One file's container.  Fill by sc_tzip_begin, feed the payload's bytes
 * to sc_tzip_update in order, then sc_tzip_finish builds the tail. */
struct sc_tzip {
	uint64_t payload;  /* bytes of archive/data/0 */
	uint64_t data_off; /* offset of the payload in the file (= head_len) */
	uint64_t fed;	   /* payload bytes fed to sc_tzip_update so far */
	uint32_t crc;	   /* running CRC-32 of the payload */
	uint32_t head_len, tail_len;
	uint64_t rec_off[SC_TZIP_RECORDS];  /* each record's local header */
	uint64_t rec_size[SC_TZIP_RECORDS]; /* its data bytes */
	uint32_t rec_crc[SC_TZIP_RECORDS];
	uint8_t head[SC_TZIP_HEAD_MAX];
	uint8_t tail[SC_TZIP_TAIL_MAX];
};

/* Builds the head of a container whose tensor is payload bytes (>= 1). */
void sc_tzip_begin(struct sc_tzip *z, uint64_t payload);

/* Adds len payload bytes at buf to the record's CRC-32. */
void sc_tzip_update(struct sc_tzip *z, const void *buf, size_t len);

/* Builds the tail once every payload byte was fed.  0, or -EINVAL when
 * the bytes fed are not the payload's. */
int sc_tzip_finish(struct sc_tzip *z);

/* Bytes of the whole file for a payload of payload bytes (head + payload +
 * tail), without building it. */
uint64_t sc_tzip_file_bytes(uint64_t payload);

/* The CRC-32 (zlib: reflected 0xEDB88320, initial and final ~0) of len
 * bytes at buf continuing crc (0 to start), sliced 16 bytes a step as
 * torch's: the same value as zlib's crc32(crc, buf, len). */
uint32_t sc_tzip_crc32(uint32_t crc, const void *buf, size_t len);

#endif
