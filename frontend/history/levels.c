/* levels.c — the level table of levels.def as lookups (levels.h). */
#include "frontend/history/levels.h"

#include <string.h>

typedef struct level_row { const char *name, *title; level_shape shape; int so, rt; } level_row;

static const level_row rows[LEVEL_COUNT] = {
#define LEVEL(id, name, title, shape, so, rt) { name, title, SHAPE_##shape, so, rt },
#include "frontend/history/levels.def"
#undef LEVEL
};

const char *level_name(check_level_id l) { return (unsigned)l < LEVEL_COUNT ? rows[l].name : "?"; }
const char *level_title(check_level_id l) { return (unsigned)l < LEVEL_COUNT ? rows[l].title : "?"; }
level_shape level_shape_of(check_level_id l) { return rows[l].shape; }
int level_session_order(check_level_id l) { return rows[l].so; }
int level_real_time(check_level_id l) { return rows[l].rt; }

int level_by_name(const char *s) {
    for (int l = 0; l < LEVEL_COUNT; l++)
        if (strcmp(rows[l].name, s) == 0) return l;
    return -1;
}
