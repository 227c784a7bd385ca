/* envelope.h -- the header in front of every packed buffer (magic, payload
 * length, CRC-32 of the payload; layout in ssdcluster.proto) and the
 * memory decoding it may take.  Inside proto/ only.
 */
#ifndef SC_ENVELOPE_H
#define SC_ENVELOPE_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>
#include <stdint.h>

/* Magics: the message, and (the digit) the envelope's version. */
#define SC_ENVELOPE_PLAN "SCP1" /* Plan */
#define SC_ENVELOPE_RANK "SCR1" /* RankResult */
#define SC_ENVELOPE_RUN	 "SCF1" /* RunRecord: results.pb */

/* msg packed behind an envelope with magic, in a new buffer (*out, *len)
 * the caller frees.  0, -ENOMEM, or -EMSGSIZE past 4 GiB. */
int sc_envelope_seal(const ProtobufCMessage *msg, const char *magic, uint8_t **out, size_t *len);

/* The same, for a message packed by parts: msg (packed first) and then
 * each of the nparts byte strings as one more value of msg's repeated
 * message field `field` (protobuf takes a message's fields in any order, so
 * this reads back as msg with those values appended to field).  Each part
 * is packed when it is appended, by part(i, &bytes, &n, arg), which the
 * caller frees after; so only one part's message need exist at a time. */
int sc_envelope_seal_parts(const ProtobufCMessage *msg, const char *field, uint32_t nparts,
			   int (*part)(uint32_t i, uint8_t **bytes, size_t *n, void *arg),
			   void *arg, const char *magic, uint8_t **out, size_t *len);

/* payload (n bytes: a message packed) appended to the growing buffer
 * *wire (*len bytes of *cap) framed as one value of the repeated message
 * field `field` of desc: the field's key, the length, the bytes.  0,
 * -EINVAL (no such field) or -ENOMEM (*wire as it was). */
int sc_envelope_frame(const ProtobufCMessageDescriptor *desc, const char *field,
		      const uint8_t *payload, size_t n, uint8_t **wire, size_t *len, size_t *cap);

/* What msg packs to (*out, *len: no envelope) with more values of its
 * repeated message field `field` given packed: wire (wire_len bytes) holds
 * them framed (sc_envelope_frame), in order, after msg's own values of the
 * field.  Byte for byte msg packed with those values in it (protobuf-c
 * writes a message's fields in the order of their numbers: wire goes
 * before the first field numbered above `field`), without converting or
 * packing them again.  0, -EINVAL, -ENOMEM or -EMSGSIZE past 4 GiB. */
int sc_envelope_pack_with(const ProtobufCMessage *msg, const char *field, const uint8_t *wire,
			  size_t wire_len, uint8_t **out, size_t *len);

/* buf (len bytes) as one or more parts, each sealed with magic, made in
 * place into one sealed buffer whose payload is the parts' payloads in
 * order (*joined bytes of buf): what a file written as a first part, with
 * parts appended after it, holds; protobuf reads the payloads one after
 * the other as the first message merged with the others (their repeated
 * fields appended, a later scalar over an earlier).  What a crash while
 * appending leaves at the end (a part cut short, or zeros) is left out,
 * *torn set to its bytes; a first part cut short, and any part damaged
 * (bytes changed), is -EBADMSG.  *nparts: the parts joined.  0 or -EBADMSG. */
int sc_envelope_join(uint8_t *buf, size_t len, const char *magic, size_t *joined,
		     uint32_t *nparts, size_t *torn);

/* The message of type desc in buf, whose envelope must say magic and agree
 * with the payload's length and CRC; free it with
 * protobuf_c_message_free_unpacked(*msg, NULL).  0; -EBADMSG for a wrong
 * magic, length or CRC or a payload protobuf-c refuses; -EFBIG when
 * unpacking would allocate more than sc_envelope_budget(len); -ENOMEM. */
int sc_envelope_open(const uint8_t *buf, size_t len, const char *magic,
		     const ProtobufCMessageDescriptor *desc, ProtobufCMessage **msg);

/* Bytes that decoding len bytes may allocate, in protobuf-c's messages and
 * again in the C structs (each budget on its own). */
uint64_t sc_envelope_budget(size_t len);

#endif
