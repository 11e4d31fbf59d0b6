/* gunzip.h — a streaming gzip (RFC 1952) / deflate (RFC 1951) decoder, so
 * that gsat reads .gz inputs on libc alone.
 *
 * Contract: compressed bytes are pulled through the `input` callback
 * (returns bytes read, 0 at end of input, < 0 on a read error); bytes the
 * caller has already consumed (to sniff the magic) are handed over as a
 * prefix.  gunzip_read() fills `out` with up to `cap` decompressed bytes and
 * returns how many (0: end of data), or -1 on corrupt or truncated data,
 * with a message from gunzip_error() and the compressed byte offset where
 * it was found.  Concatenated members are decoded one after the other;
 * CRC-32 and length of every member are checked. */
#ifndef GSAT_GUNZIP_H
#define GSAT_GUNZIP_H

#include <stddef.h>

typedef long (*gunzip_input)(void *ctx, unsigned char *buf, size_t cap);
typedef struct gunzip gunzip;

/* 1 if the bytes start like a gzip member (magic 1f 8b). */
int gunzip_magic(const unsigned char *p, size_t n);

gunzip *gunzip_new(const unsigned char *prefix, size_t prefix_len, gunzip_input input, void *ctx);
long gunzip_read(gunzip *g, unsigned char *out, size_t cap);
const char *gunzip_error(const gunzip *g);
long long gunzip_error_offset(const gunzip *g);
void gunzip_free(gunzip *g);

#endif
