/* frontend/online/retire_ids.h — the ids of retired transactions
 * (`--retire`: a retired transaction id that comes back in the stream is
 * refused, as batch refuses a transaction given twice).
 *
 * Contract
 *   - The ids are split into chunks of RETIRE_ID_CHUNK consecutive ids
 *     (found through a hash on the chunk's number).  A chunk holds a sorted
 *     list of its retired offsets (2 bytes each) while it has at most
 *     RETIRE_ID_LIST of them, then a bitmap (RETIRE_ID_CHUNK / 8 bytes), and
 *     nothing once every id of it retired.
 *   - retire_ids_add() adds a batch of ids (any order, repeats allowed);
 *     retire_ids_has() answers membership; both O(1) per id apart from a
 *     list chunk's insertion (at most RETIRE_ID_LIST entries moved).
 *   - Memory (retire_ids_bytes): ids numbered densely by one counter, as
 *     `isocheck gen` and most recorders number them, fill their chunks and
 *     leave only the chunk's slot (about 40 bytes per 4,096 ids); ids the
 *     numbering skips for good (aborted attempts that took a number: about
 *     one in nine in `gen --level ser`) keep their chunk as a bitmap, one
 *     bit per id (0.125 bytes a transaction); sparse ids (more than
 *     RETIRE_ID_CHUNK / RETIRE_ID_LIST apart) cost about 2 bytes each plus
 *     their chunk's slot.  doc/checker.md, "Retiring transactions".
 *   - Never prints, never exits. */
#ifndef ISOCHECK_ONLINE_RETIRE_IDS_H
#define ISOCHECK_ONLINE_RETIRE_IDS_H

#include <stddef.h>
#include <stdint.h>

#include "vec.h"
#include "frontend/history/u64map.h"

#define RETIRE_ID_CHUNK 4096
#define RETIRE_ID_LIST 256

typedef struct retire_id_chunk {
    uint16_t *list;              /* sorted offsets (n <= RETIRE_ID_LIST), NULL otherwise */
    uint64_t *bits;              /* the bitmap (n > RETIRE_ID_LIST), NULL otherwise */
    uint32_t n, cap;             /* ids retired in the chunk (RETIRE_ID_CHUNK: every one), list capacity */
} retire_id_chunk;

typedef struct retire_ids {
    VEC(retire_id_chunk) chunks;
    u64map index;                /* chunk number -> its slot in chunks */
    size_t bytes;                /* lists and bitmaps */
} retire_ids;

void retire_ids_init(retire_ids *s);
void retire_ids_free(retire_ids *s);
void retire_ids_add(retire_ids *s, const int64_t *ids, size_t n);
int retire_ids_has(const retire_ids *s, int64_t id);
/* Bytes held: the slots, the index and the lists and bitmaps. */
size_t retire_ids_bytes(const retire_ids *s);

#endif
