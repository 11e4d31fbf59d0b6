/* gsat_report.c — gsat's statistics, model lines, progress table and
 * signal handling (contract: programs/gsat_report.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "io/output.h"
#include "io/tmp_registry.h"
#include "programs/gsat_report.h"
#include "solver/solver.h"
#include "solver/varnum.h"
#include "theory/acyclic.h"

void gsat_print_stats(const gsat *s, double parse_seconds) {
    printf("c parse time: %.3f s\n", parse_seconds);
#define X(name, help) printf("c %-24s %lld\n", #name ":", (long long)s->st.name);
    GSAT_STATS(X)
#undef X
    printf("c %-24s %.3f\n", "solve time (s):", s->st.seconds);
    const acyclic *a = acyclic_find(s);
    if (a) {
        acyclic_stats as;
        acyclic_get_stats(a, &as);
        int64_t n = s->st.theory_conflicts + s->st.theory_explanations;
        printf("c %-24s %.2f\n", "theory clause avg lits:", n ? (double)s->st.theory_explanation_lits / (double)n : 0.0);
#define X(name, help) printf("c acyclic %-24s %lld\n", #name ":", (long long)as.name);
        ACYCLIC_STATS(X)
#undef X
    }
}

void gsat_print_model(const gsat *s, const vec_int *names) {
    char buf[96];
    size_t len = 0;
    int n = (int)names->len - 1;
    for (int v = 1; v <= n + 1; v++) {
        if (v <= n && !names->data[v]) continue;   /* an index the input does not name */
        char tok[16];
        int t = v <= n ? snprintf(tok, sizeof tok, " %d", varnum_file_lit(names, gsat_value(s, v) > 0 ? v : -v))
                       : snprintf(tok, sizeof tok, " 0");
        if (len + (size_t)t > 78) {
            if (fwrite(buf, 1, len, stdout) != len || fputc('\n', stdout) == EOF) output_stdout_failed(errno);
            len = 0;
        }
        if (len == 0) { buf[0] = 'v'; len = 1; }
        memcpy(buf + len, tok, (size_t)t);
        len += (size_t)t;
    }
    if (fwrite(buf, 1, len, stdout) != len || fputc('\n', stdout) == EOF) output_stdout_failed(errno);
}

static const char rule[] = "c ==============================================================================\n";

static void progress_line(void *state, const gsat *s) {
    (void)state;
    uint32_t fixed = s->trail_lim.len ? s->trail_lim.data[0] : s->trail_n;
    double per = s->st.learned ? (double)s->st.learned_lits / (double)s->st.learned : 0.0;
    if (printf("c | %10lld %11lld %8lld | %10lld %9zu %6.1f | %8u %8.2f |\n", (long long)s->st.conflicts,
               (long long)s->st.decisions, (long long)s->st.restarts, (long long)s->st.learned, s->learnts.len, per,
               fixed, s->st.seconds + (gsat_now() - s->solve_start)) < 0 || fflush(stdout) == EOF)
        output_stdout_failed(errno);
}

void gsat_progress_start(gsat *s) {
    printf("%s", rule);
    printf("c |  conflicts   decisions restarts |    learned      kept lits/c |    fixed     time |\n");
    printf("%s", rule);
    if (fflush(stdout) == EOF) output_stdout_failed(errno);
    s->progress_fn = progress_line;
    s->progress_state = NULL;
}

void gsat_progress_end(gsat *s) {
    s->solve_start = gsat_now();      /* the time is in st.seconds now */
    progress_line(NULL, s);
    printf("%s", rule);
    s->progress_fn = NULL;
}

static volatile sig_atomic_t interrupted, searching;

static void on_interrupt(int sig) {
    if (interrupted || !searching) {  /* the second, or while reading: end now, leaving no temporary file */
        tmpreg_unlink_all();
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    interrupted = sig;
}

static int poll_interrupt(void *state) {
    (void)state;
    return interrupted != 0;
}

void gsat_signals_install(gsat *s) {
    tmpreg_on_signals();              /* the other signals: remove the temporary files and end */
    static const int mine[] = { SIGINT, SIGTERM };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;         /* reading goes on; the flag is looked at after it */
    for (size_t i = 0; i < sizeof mine / sizeof *mine; i++) {
        struct sigaction old;
        if (sigaction(mine[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue;
        sigaction(mine[i], &sa, NULL);
    }
    gsat_set_terminate(s, NULL, poll_interrupt);
}

void gsat_signals_searching(int on) { searching = on; }

int gsat_interrupted(void) { return (int)interrupted; }
