/* version_hint.h — reading a database's claimed version order (a "hint",
 * `isocheck check --version-order FILE`; doc/formats.md, "Version order
 * hints").
 *
 * Two forms, told apart by the first non-blank byte ('{': JSON):
 *   text   one line per key: the key, a colon, then the key's written
 *          values in version order (oldest first), separated by blanks;
 *          blank lines and lines starting with '#' are ignored.
 *              10: 1 4 2
 *   JSON   one object, each member a key and an array of its values in
 *          version order; numbers and strings are taken as written,
 *          null is the initial value.
 *              {"10": [1, 4, 2], "x": [null, "a"]}
 * A hint may be partial: keys may be absent and a key may list only some
 * of its versions.  This reader checks the syntax only (a key listed twice
 * is malformed); what the values mean is the checker's
 * (frontend/checking/hints.h).  Everything is kept as text, with its line,
 * so messages can point at the file. */
#ifndef ISOCHECK_VERSION_HINT_H
#define ISOCHECK_VERSION_HINT_H

#include <stdint.h>

#include "error.h"
#include "vec.h"

typedef struct vh_key {
    uint32_t name;              /* offset of the key's text in pool */
    uint32_t line;              /* where the key is named */
    uint32_t first, num;        /* its values: values[first .. first + num) */
} vh_key;

typedef struct vh_value {
    uint32_t text;              /* offset of the value's text in pool ("init" for JSON null) */
    uint32_t line;
    uint8_t is_init;            /* JSON null */
} vh_value;

typedef struct version_hint {
    char *source;               /* the path it was read from */
    vec_char pool;              /* NUL-terminated texts */
    VEC(vh_key) keys;
    VEC(vh_value) values;
} version_hint;

/* Read path ("-": standard input).  Returns 1, or 0 with err naming the
 * file and line of the first error. */
int version_hint_load(const char *path, version_hint *vh, ic_error *err);
/* The same from memory (tests); name is used in messages. */
int version_hint_parse(const char *name, const char *data, size_t len, version_hint *vh, ic_error *err);
void version_hint_free(version_hint *vh);

static inline const char *vh_text(const version_hint *vh, uint32_t off) { return vh->pool.data + off; }

#endif
