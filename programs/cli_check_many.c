/* cli_check_many.c — many histories in one run (contract in
 * cli_check_many.h). */
#include "programs/cli_check_many.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "frontend/reports/html_report.h"
#include "io/json_out.h"
#include "io/output_tree.h"
#include "io/path.h"
#include "programs/cli.h"
#include "programs/cli_report.h"
#include "programs/interrupt.h"
#include "version.h"

typedef VEC(char *) str_vec;

static char *dupstr(const char *s) { return strcpy(xmalloc(strlen(s) + 1), s); }

static int is_dir(const char *p) {
    struct stat st;
    return strcmp(p, "-") && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A directory that load_history reads as one history. */
static int dir_is_history(const char *p, int fmt) {
    if (fmt == FORMAT_COBRA || fmt == FORMAT_VIPER) return 1;
    DIR *d = opendir(p);
    if (!d) return 1;                    /* let the loader say why */
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        found = (n > 4 && !strcmp(e->d_name + n - 4, ".log")) || !strcmp(e->d_name, "history.bincode");
    }
    closedir(d);
    return found;
}

int cli_check_is_many(const char *const *paths, size_t n, int fmt) {
    return n > 1 || (n == 1 && is_dir(paths[0]) && !dir_is_history(paths[0], fmt));
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The regular files of dir (no dot files), sorted, appended to out; 0
 * after a message when it cannot be read. */
static int list_dir(const char *dir, str_vec *out) {
    DIR *d = opendir(dir);
    if (!d) { perror(dir); return 0; }
    size_t first = out->len;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *p = xmalloc(n);
        snprintf(p, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) vec_push(*out, p);
        else free(p);
    }
    closedir(d);
    if (out->len > first) qsort(out->data + first, out->len - first, sizeof *out->data, by_name);
    return 1;
}

static int expand(const check_many *m, str_vec *out) {
    for (size_t i = 0; i < m->num_paths; i++) {
        const char *p = m->paths[i];
        if (is_dir(p) && !dir_is_history(p, m->fmt)) {
            size_t before = out->len;
            if (!list_dir(p, out)) return 0;
            if (out->len == before) { fprintf(stderr, "isocheck check: %s: no history files in the directory\n", p); return 0; }
        } else vec_push(*out, dupstr(p));
    }
    return 1;
}

/* One history's outcome, for its line, the summary and the top page. */
typedef struct run_row {
    char *path, *sub;            /* sub: its report subdirectory */
    char status[8];              /* PASS FAIL UNKNOWN ERROR */
    char levels[256];
    char *detail;                /* anomaly names, or the error */
} run_row;

/* "lost-update (G-single) x2, aborted-read (G1a)" */
static char *anomaly_names(const report *r) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return dupstr("");
    for (size_t i = 0; i < r->items.len; i++) {
        const report_anomaly *a = &r->items.data[i];
        const char *name = anomaly_name(a->kind), *cls = a->adya;
        int seen = 0, count = 0;
        for (size_t j = 0; j < r->items.len; j++) {
            const report_anomaly *b = &r->items.data[j];
            if (b->kind == a->kind && !strcmp(b->adya, cls)) { seen |= j < i; count++; }
        }
        if (seen) continue;
        fprintf(m, "%s%s", ftell(m) ? ", " : "", name);
        if (cls[0]) fprintf(m, " (%s)", cls);
        if (count > 1) fprintf(m, " x%d", count);
    }
    fclose(m);
    return buf;
}

static void row_levels(run_row *w, const report *r) {
    size_t at = 0;
    w->levels[0] = 0;
    if (report_axioms_fail_all(r))
        at += (size_t)snprintf(w->levels, sizeof w->levels, "read axioms FAIL%s", r->num_levels ? "; among the rest:" : "");
    for (int i = 0; i < r->num_levels && at < sizeof w->levels; i++)
        at += (size_t)snprintf(w->levels + at, sizeof w->levels - at, "%s%s %s", !at ? "" : i ? ", " : " ",
                               report_level_name(r->levels[i].level), verdict_name(r->levels[i].verdict));
}

/* The error, without its file when that is the history's path (the line
 * names it already). */
static char *error_text(const ic_error *e, const char *path) {
    char buf[1200];
    if (e->file[0] && e->line <= 0 && e->offset < 0 && !strcmp(e->file, path)) snprintf(buf, sizeof buf, "%s", e->msg);
    else if (e->file[0] && e->line > 0) snprintf(buf, sizeof buf, "%s:%ld: %s", e->file, e->line, e->msg);
    else if (e->file[0] && e->offset >= 0) snprintf(buf, sizeof buf, "%s: byte %lld: %s", e->file, e->offset, e->msg);
    else if (e->file[0]) snprintf(buf, sizeof buf, "%s: %s", e->file, e->msg);
    else snprintf(buf, sizeof buf, "%s", e->msg);
    return dupstr(buf);
}

/* "007-galera.txt": the report subdirectory of history i. */
static char *sub_name(size_t i, const char *path) {
    const char *base = strcmp(path, "-") ? path_base(path) : "stdin";
    char buf[96];
    int at = snprintf(buf, sizeof buf, "%03zu-", i + 1);
    for (const char *c = base; *c && at < 80; c++) {
        char ch = *c;
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
        buf[at++] = ok ? ch : '_';
    }
    buf[at] = 0;
    return dupstr(buf);
}

/* Load and check one history into w (and its pages into t). */
static void check_one(const check_many *m, output_tree *t, run_row *w, int *tree_ok) {
    ic_error err;
    ic_error_clear(&err);
    load_report lrep;
    load_report_init(&lrep);
    interrupt_stage("loading the history", NULL);
    interrupt_loading(1);                /* a signal ends the load within one block (interrupt.h) */
    history *h = load_history_ex(w->path, (history_format)m->fmt, m->lopt, &lrep, &err);
    interrupt_loading(0);
    if (h && interrupt_signal()) { history_free(h); h = NULL; ic_error_at(&err, w->path, 0, "stopped while loading"); }
    interrupt_stage("checking", NULL);
    if (h) load_report_print_notes(stderr, &lrep, "isocheck", w->path);
    if (h && m->verbose) { fprintf(stderr, "load report (%s):\n", w->path); load_report_print(stderr, &lrep); }
    load_report_free(&lrep);
    report rep;
    if (h && m->need_times && !(history_has_times(h, TIME_INVOKE) && history_has_times(h, TIME_COMPLETE))) {
        ic_error_at(&err, w->path, 0, "a level asked needs invocation and completion times, and this history has none");
        history_free(h);
        h = NULL;
    }
    if (h) {
        report_init(&rep, h, m->level_arg);
        rep.ladder = m->ladder;
        int cl;
        if (!run_check(h, &m->ro, &rep, NULL, &cl, &err)) { report_free(&rep); history_free(h); h = NULL; }
    }
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s/", w->sub);
    ic_error terr;
    ic_error_clear(&terr);
    if (!h) {
        snprintf(w->status, sizeof w->status, "ERROR");
        w->detail = error_text(&err, w->path);
        if (*tree_ok && !cli_report_error_page(t, prefix, w->path, w->detail, &terr)) *tree_ok = 0;
    } else {
        snprintf(w->status, sizeof w->status, "%s", verdict_name(report_verdict(&rep)));
        row_levels(w, &rep);
        w->detail = anomaly_names(&rep);
        for (int i = 0; i < rep.num_levels && !w->detail[0]; i++)      /* no answer: why */
            if (rep.levels[i].verdict == VERDICT_UNKNOWN) { free(w->detail); w->detail = dupstr(rep.levels[i].msg); }
        if (m->json) report_print_json(stdout, &rep);
        if (*tree_ok && !cli_report_pages(t, prefix, &rep, "../index.html", &terr)) *tree_ok = 0;
        report_free(&rep);
        history_free(h);
    }
    if (terr.set) cli_error("isocheck check: cannot write the report", &terr);
    if (m->json && !h) {
        fputs("{\"isocheck\": 1, \"version\": \"" ISOCHECK_VERSION "\", \"history\": ", stdout);
        json_write_string(stdout, w->path);
        fputs(", \"error\": ", stdout);
        json_write_string(stdout, w->detail);
        fputs("}\n", stdout);
    }
    if (!m->json) {
        printf("%s %s: %s", w->status, w->path, w->levels[0] ? w->levels : w->detail);
        if (w->levels[0] && w->detail[0]) printf(": %s", w->detail);
        putchar('\n');
    }
    fflush(stdout);
}

/* The summary line (or object), the top page; the exit code. */
static int finish(const check_many *m, run_row *rows, size_t n, output_tree *t, int tree_ok) {
    size_t c[4] = { 0 };                 /* PASS FAIL UNKNOWN ERROR */
    static const char *const names[4] = { "PASS", "FAIL", "UNKNOWN", "ERROR" };
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 4; k++) c[k] += !strcmp(rows[i].status, names[k]);
    char summary[256];
    snprintf(summary, sizeof summary, "%zu histor%s: %zu PASS, %zu FAIL, %zu UNKNOWN, %zu ERROR", n, n == 1 ? "y" : "ies",
             c[0], c[1], c[2], c[3]);
    int rc = c[1] ? 1 : (c[2] || c[3]) ? 2 : 0;
    if (m->report_dir) {
        ic_error err;
        ic_error_clear(&err);
        html_run_row *hr = xmalloc((n ? n : 1) * sizeof *hr);
        char (*hrefs)[160] = xmalloc((n ? n : 1) * sizeof *hrefs);
        for (size_t i = 0; i < n; i++) {
            snprintf(hrefs[i], sizeof hrefs[i], "%s/index.html", rows[i].sub);
            hr[i] = (html_run_row){ rows[i].path, hrefs[i], rows[i].status, rows[i].levels, rows[i].detail };
        }
        FILE *f = tree_ok ? output_tree_file(t, "index.html", &err) : NULL;
        if (f) html_report_runs(f, hr, n, summary);
        if (f && output_tree_commit(t, &err)) {
            if (!m->json) printf("report: %s/index.html\n", m->report_dir);
        } else {
            if (err.set) cli_error("isocheck check: cannot write the report", &err);
            output_tree_discard(t);
            rc = 2;
        }
        free(hr);
        free(hrefs);
    }
    if (m->json) printf("{\"isocheck\": 1, \"version\": \"" ISOCHECK_VERSION "\", \"summary\": {\"histories\": %zu, \"PASS\": %zu, \"FAIL\": %zu, \"UNKNOWN\": %zu, "
                        "\"ERROR\": %zu}, \"exit\": %d}\n", n, c[0], c[1], c[2], c[3], rc);
    else printf("%s\n", summary);
    return rc;
}

int cli_check_many(const check_many *m) {
    str_vec paths;
    vec_init(paths);
    int rc = 2;
    if (expand(m, &paths)) {
        run_row *rows = xmalloc((paths.len ? paths.len : 1) * sizeof *rows);
        char **subs = xmalloc((paths.len ? paths.len : 1) * sizeof *subs);
        for (size_t i = 0; i < paths.len; i++) {
            memset(&rows[i], 0, sizeof rows[i]);
            rows[i].path = paths.data[i];
            rows[i].sub = subs[i] = sub_name(i, paths.data[i]);
        }
        output_tree t;
        memset(&t, 0, sizeof t);
        ic_error err;
        ic_error_clear(&err);
        int tree_ok = m->report_dir != NULL;
        if (m->report_dir && !output_tree_open(&t, m->report_dir, (const char *const *)subs, paths.len, &err)) {
            cli_error("isocheck check", &err);
            tree_ok = 0;
        }
        if (!m->report_dir || tree_ok) {
            interrupt_install();         /* SIGINT/SIGTERM: the histories done, "no verdict", exit 128+N */
            size_t done = 0;
            while (done < paths.len && !interrupt_signal()) check_one(m, &t, &rows[done++], &tree_ok);
            interrupt_reporting(1);
            if (interrupt_signal()) tree_ok = 0;   /* a stopped run leaves no report (doc/cli.md, rule 6) */
            rc = finish(m, rows, done, &t, tree_ok);
            if (interrupt_signal()) {
                printf("no verdict: stopped by %s after %zu of %zu histories\n", interrupt_name(), done, paths.len);
                rc = interrupt_exit_code();
            }
            interrupt_restore();
        }
        for (size_t i = 0; i < paths.len; i++) { free(rows[i].detail); free(subs[i]); }
        free(rows);
        free(subs);
    }
    vec_foreach(char *, p, paths) free(*p);
    vec_free(paths);
    return rc;
}
