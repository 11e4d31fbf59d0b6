/* json_lines.h — the JSON lexer of parse_json.c for other readers of
 * JSON lines (Viper's logs): each blank-separated top-level value of an
 * input, as an operation tree (optree.h), strict RFC 8259 as parse_json. */
#ifndef ISOCHECK_JSON_LINES_H
#define ISOCHECK_JSON_LINES_H

#include "error.h"
#include "io/input.h"
#include "frontend/formats/optree.h"

typedef int (*jl_value_fn)(void *ctx, const optree *t, uint32_t root, ic_error *err);

/* Call each(ctx, tree, root, err) for every top-level value of r, in
 * order (the tree is reused between calls).  1 when all were read and
 * each returned 1; 0 with err set at FILE:LINE otherwise. */
int jl_each_value(input *r, jl_value_fn each, void *ctx, ic_error *err);

#endif
