/* test_output.c — io/output.h: a target is replaced only by a
 * complete file, failures remove only the module's own temporary files,
 * devices are written in place, no-clobber, directories of logs, the
 * checks of outputs against inputs (standard input and output included),
 * temporary files removed when a signal ends the process
 * (io/tmp_registry.h), and io/path.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/output.h"
#include "io/path.h"
#include "io/tmp_registry.h"

static char dir[64];

static int setup(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/isocheck-out-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *p(const char *name) {
    static char buf[4][256];
    static int i;
    i = (i + 1) % 4;
    snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
    return buf[i];
}

static void put(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static const char *get(const char *path) {
    static char buf[256];
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* Entries of dir d other than . and .., as "a b c" in readdir order sorted. */
static int entries(const char *d) {
    DIR *x = opendir(d);
    assert_non_null(x);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(x))) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(x);
    return n;
}

static void replaced_only_when_complete(void **state) {
    (void)state;
    ic_error err;
    ic_error_clear(&err);
    put(p("f"), "old\n");
    chmod(p("f"), 0640);
    output o;
    assert_true(output_open(&o, p("f"), 0, &err));
    fputs("new\n", o.f);
    assert_string_equal(get(p("f")), "old\n");            /* not yet */
    assert_int_equal(entries(dir), 2);                    /* f and the temporary file */
    assert_true(output_commit(&o, &err));
    assert_string_equal(get(p("f")), "new\n");
    struct stat st;
    assert_int_equal(stat(p("f"), &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);            /* the mode is kept */
    assert_int_equal(entries(dir), 1);
    /* discarded: the target is as it was and nothing else is left */
    assert_true(output_open(&o, p("f"), 0, &err));
    fputs("lost\n", o.f);
    output_discard(&o);
    assert_string_equal(get(p("f")), "new\n");
    assert_true(output_open(&o, p("g"), 0, &err));        /* a new file that is never completed */
    output_discard(&o);
    assert_null(get(p("g")));
    assert_int_equal(entries(dir), 1);
    assert_false(err.set);
    unlink(p("f"));
}

static void links_devices_and_no_clobber(void **state) {
    (void)state;
    ic_error err;
    ic_error_clear(&err);
    put(p("target"), "old\n");
    assert_int_equal(symlink("target", p("link")), 0);
    output o;
    assert_true(output_open(&o, p("link"), 0, &err));
    fputs("via link\n", o.f);
    assert_true(output_commit(&o, &err));
    struct stat st;
    assert_int_equal(lstat(p("link"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));                      /* still a link */
    assert_string_equal(get(p("target")), "via link\n");
    /* a link to nothing is refused, not replaced */
    assert_int_equal(symlink("nowhere", p("dangling")), 0);
    assert_false(output_open(&o, p("dangling"), 0, &err));
    assert_string_equal(err.msg, "cannot write: a symbolic link to a missing file");
    ic_error_clear(&err);
    /* no-clobber */
    assert_false(output_open(&o, p("target"), OUTPUT_NO_CLOBBER, &err));
    assert_string_equal(err.msg, "the file exists; not replaced (--force replaces it)");
    ic_error_clear(&err);
    assert_false(output_may_write(p("target"), 0, OUTPUT_NO_CLOBBER, &err));
    ic_error_clear(&err);
    assert_true(output_may_write(p("target"), 0, OUTPUT_FORCE, &err));
    /* a device is written in place, and a failure there removes nothing */
    assert_true(output_open(&o, "/dev/null", OUTPUT_NO_CLOBBER, &err));
    assert_null(o.tmp);
    fputs("x", o.f);
    assert_true(output_commit(&o, &err));
    if (access("/dev/full", W_OK) == 0) {
        assert_true(output_open(&o, "/dev/full", 0, &err));
        fputs("x", o.f);
        assert_false(output_commit(&o, &err));
        assert_string_equal(err.msg, "write error: No space left on device");
        assert_int_equal(stat("/dev/full", &st), 0);
        assert_true(S_ISCHR(st.st_mode));
        ic_error_clear(&err);
    }
    /* a directory is not a file */
    assert_false(output_open(&o, dir, 0, &err));
    assert_string_equal(err.msg, "cannot write: it is a directory");
    unlink(p("link")); unlink(p("dangling")); unlink(p("target"));
}

static void log_directories(void **state) {
    (void)state;
    ic_error err;
    ic_error_clear(&err);
    output_dir d;
    /* a new directory that fails is removed again */
    assert_true(output_dir_open(&d, p("logs"), 0, &err));
    assert_non_null(output_dir_file(&d, "T0.log", &err));
    output_dir_discard(&d);
    assert_int_equal(access(p("logs"), F_OK), -1);
    /* a complete one */
    assert_true(output_dir_open(&d, p("logs"), 0, &err));
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "T%d.log", i);
        FILE *f = output_dir_file(&d, name, &err);
        assert_non_null(f);
        fprintf(f, "log %d\n", i);
    }
    assert_true(output_dir_commit(&d, &err));
    assert_int_equal(entries(p("logs")), 3);
    assert_string_equal(get(p("logs/T2.log")), "log 2\n");
    /* not empty: refused without force */
    assert_false(output_dir_open(&d, p("logs"), 0, &err));
    assert_string_equal(err.msg, "the directory is not empty; not written (--force replaces the *.log files in it)");
    ic_error_clear(&err);
    assert_false(output_may_write(p("logs"), 1, 0, &err));
    ic_error_clear(&err);
    /* force: old logs go, other files stay, the new logs are in place */
    put(p("logs/README"), "notes\n");
    assert_true(output_dir_open(&d, p("logs"), OUTPUT_FORCE, &err));
    FILE *f = output_dir_file(&d, "T0.log", &err);
    assert_non_null(f);
    fputs("new 0\n", f);
    assert_string_equal(get(p("logs/T0.log")), "log 0\n");     /* not before commit */
    assert_true(output_dir_commit(&d, &err));
    assert_string_equal(get(p("logs/T0.log")), "new 0\n");
    assert_null(get(p("logs/T1.log")));
    assert_null(get(p("logs/T2.log")));
    assert_string_equal(get(p("logs/README")), "notes\n");
    assert_int_equal(entries(p("logs")), 2);
    /* force, but failing: everything stays */
    assert_true(output_dir_open(&d, p("logs"), OUTPUT_FORCE, &err));
    assert_non_null(output_dir_file(&d, "T5.log", &err));
    output_dir_discard(&d);
    assert_int_equal(entries(p("logs")), 2);
    assert_string_equal(get(p("logs/T0.log")), "new 0\n");
    /* a *.log entry that is a directory is not removed: refused */
    assert_int_equal(mkdir(p("logs/sub.log"), 0777), 0);
    assert_false(output_dir_open(&d, p("logs"), OUTPUT_FORCE, &err));
    assert_string_equal(err.msg, "'sub.log' is not a file; remove it or write the logs elsewhere");
    assert_true(err.set);
}

static void outputs_against_inputs(void **state) {
    (void)state;
    ic_error err;
    ic_error_clear(&err);
    put(p("in.txt"), "r(1,0,1,1)\n");
    assert_int_equal(link(p("in.txt"), p("hard.txt")), 0);
    assert_int_equal(mkdir(p("d"), 0777), 0);
    assert_int_equal(mkdir(p("d/sub"), 0777), 0);
    put(p("d/T0.log"), "S");
    assert_false(output_check_input(p("in.txt"), 0, p("in.txt"), &err));
    ic_error_clear(&err);
    assert_false(output_check_input(p("hard.txt"), 0, p("in.txt"), &err));          /* same inode */
    assert_true(strstr(err.msg, "this output is the input") != NULL);
    ic_error_clear(&err);
    assert_false(output_check_input(p("d/../in.txt"), 0, p("in.txt"), &err));
    ic_error_clear(&err);
    assert_false(output_check_input(p("d/new.txt"), 0, p("d"), &err));             /* inside the input directory */
    assert_true(strstr(err.msg, "lies inside the input directory") != NULL);
    ic_error_clear(&err);
    assert_false(output_check_input(p("d/sub/new.txt"), 0, p("d"), &err));
    ic_error_clear(&err);
    assert_false(output_check_input(p("d"), 1, p("d/T0.log"), &err));              /* the directory holds the input */
    assert_true(strstr(err.msg, "contains the input") != NULL);
    ic_error_clear(&err);
    assert_true(output_check_input(p("out.txt"), 0, p("in.txt"), &err));
    assert_true(output_check_input(p("out"), 1, p("d/T0.log"), &err));
    assert_true(output_check_input("-", 0, p("in.txt"), &err));
    assert_true(output_check_input("/dev/null", 0, p("d"), &err));
    assert_true(output_check_input(p("x"), 0, "-", &err));
    assert_false(err.set);
    /* two outputs */
    assert_false(output_check_distinct(p("c"), p("./c"), &err));                    /* neither exists yet */
    ic_error_clear(&err);
    assert_false(output_check_distinct(p("in.txt"), p("hard.txt"), &err));
    ic_error_clear(&err);
    assert_true(output_check_distinct(p("c"), p("c2"), &err));
    assert_true(output_check_distinct("/dev/null", "/dev/null", &err));
    assert_true(output_check_distinct(p("c"), NULL, &err));
    assert_false(err.set);
}

/* Standard input and output as "-" or under another name (/dev/stdin,
 * /proc/self/fd/0): the file behind them is compared, a pipe included. */
static void standard_streams_against_outputs(void **state) {
    (void)state;
    ic_error err;
    ic_error_clear(&err);
    put(p("h.txt"), "r(1,0,1,1)\n");
    int saved_in = dup(0), saved_out = dup(1);
    assert_true(saved_in >= 0 && saved_out >= 0);
    int fd = open(p("h.txt"), O_RDONLY);
    assert_true(fd >= 0 && dup2(fd, 0) == 0);
    close(fd);
    const char *same[] = { p("h.txt"), "/dev/stdin", "/proc/self/fd/0" };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        ic_error_clear(&err);
        assert_false(output_check_input(same[i], 0, "-", &err));
        assert_non_null(strstr(err.msg, "this output is the input (standard input): refusing to write over it"));
    }
    ic_error_clear(&err);
    assert_true(output_check_input(p("other.txt"), 0, "-", &err));
    assert_true(output_check_input("/dev/null", 0, "-", &err));
    assert_false(err.set);
    /* standard output appending to the input */
    fd = open(p("h.txt"), O_WRONLY | O_APPEND);
    assert_true(fd >= 0);
    fflush(stdout);
    assert_int_equal(dup2(fd, 1), 1);
    close(fd);
    int r1 = output_check_input("-", 0, "-", &err);
    ic_error e1 = err;
    ic_error_clear(&err);
    int r2 = output_check_input("-", 0, p("h.txt"), &err);
    ic_error e2 = err;
    ic_error_clear(&err);
    int r3 = output_check_input("-", 0, p("other.txt"), &err);
    assert_int_equal(dup2(saved_out, 1), 1);
    assert_false(r1);
    assert_string_equal(e1.msg, "standard output is the input (standard input): refusing to write over it");
    assert_false(r2);
    assert_non_null(strstr(e2.msg, "standard output is the input"));
    assert_true(r3);
    /* a pipe: writing into the one being read would keep it open forever */
    int pp[2];
    assert_int_equal(pipe(pp), 0);
    assert_int_equal(dup2(pp[0], 0), 0);
    close(pp[0]);
    ic_error_clear(&err);
    assert_false(output_check_input("/dev/stdin", 0, "-", &err));
    assert_non_null(strstr(err.msg, "a pipe: refusing to write into it (the input would never end)"));
    ic_error_clear(&err);
    assert_false(output_check_input("/proc/self/fd/0", 0, "-", &err));
    char pipe_name[64];
    snprintf(pipe_name, sizeof pipe_name, "/proc/self/fd/%d", pp[1]);
    ic_error_clear(&err);
    assert_false(output_check_input(pipe_name, 0, "-", &err));     /* its write end, by another name */
    close(pp[1]);
    assert_int_equal(dup2(saved_in, 0), 0);
    close(saved_in); close(saved_out);
    assert_string_equal(get(p("h.txt")), "r(1,0,1,1)\n");
}

/* In a child: commit done.txt, then leave `open_files` outputs (one over
 * keep.txt) and a new log directory half written, and end by signal sig
 * (tmpreg_on_signals installed unless `no_handler`).  The parent's
 * assertions follow. */
static void die_writing(int sig, int open_files, int no_handler) {
    signal(sig, SIG_DFL);
    if (!no_handler) tmpreg_on_signals();
    ic_error err;
    ic_error_clear(&err);
    output done, o[150];
    if (!output_open(&done, p("done.txt"), 0, &err)) _exit(3);
    fputs("complete\n", done.f);
    if (!output_commit(&done, &err)) _exit(3);
    for (int i = 0; i < open_files; i++) {
        char name[32];
        snprintf(name, sizeof name, i == 0 ? "keep.txt" : "out%d.txt", i);
        if (!output_open(&o[i], p(name), 0, &err)) _exit(4);
        fputs("partial\n", o[i].f);
        fflush(o[i].f);
    }
    output_dir d;
    if (!output_dir_open(&d, p("newlogs"), 0, &err) || !output_dir_file(&d, "T0.log", &err)) _exit(5);
    fputs("S", d.cur);
    fflush(d.cur);
    kill(getpid(), sig);
    _exit(6);                                   /* not reached: the signal ends the process */
}

static int count_temporaries(const char *d) {
    DIR *x = opendir(d);
    assert_non_null(x);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(x))) n += strstr(e->d_name, ".isocheck-") != NULL;
    closedir(x);
    return n;
}

/* SIGINT or SIGTERM while outputs are being written: every temporary file
 * and the directory the module created are gone, the committed output and
 * the user's file stay, and the process ends by the signal. */
static void signals_leave_no_temporaries(void **state) {
    (void)state;
    static const struct { int sig, files, no_handler; } runs[] = {
        { SIGINT, 1, 0 }, { SIGTERM, 150, 0 }, { SIGHUP, 3, 0 }, { SIGTERM, 3, 1 },
    };
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        char cmd[160];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'/* '%s'/.[!.]*", dir, dir);
        assert_int_equal(system(cmd), 0);
        put(p("keep.txt"), "mine\n");
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) die_writing(runs[r].sig, runs[r].files, runs[r].no_handler);
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        assert_true(WIFSIGNALED(st));
        assert_int_equal(WTERMSIG(st), runs[r].sig);
        assert_string_equal(get(p("keep.txt")), "mine\n");
        assert_string_equal(get(p("done.txt")), "complete\n");
        if (runs[r].no_handler) {                /* the control: without the handler they stay */
            assert_int_equal(count_temporaries(dir), runs[r].files);
            continue;
        }
        assert_int_equal(count_temporaries(dir), 0);
        assert_int_equal(entries(dir), 2);     /* keep.txt and done.txt: no newlogs/ */
    }
}

/* io/path.h: the directory and the last component of a name. */
static void parts_of_a_path(void **state) {
    (void)state;
    static const struct { const char *path, *dir, *base; } cases[] = {
        { "a/b/c", "a/b", "c" }, { "c", ".", "c" }, { "/c", "/", "c" }, { "/a/b", "/a", "b" },
        { "./c", ".", "c" }, { "a/", "a", "" }, { "", ".", "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *d = path_dir(cases[i].path);
        assert_string_equal(d, cases[i].dir);
        assert_string_equal(path_base(cases[i].path), cases[i].base);
        free(d);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replaced_only_when_complete),
        cmocka_unit_test(links_devices_and_no_clobber),
        cmocka_unit_test(log_directories),
        cmocka_unit_test(outputs_against_inputs),
        cmocka_unit_test(standard_streams_against_outputs),
        cmocka_unit_test(signals_leave_no_temporaries),
        cmocka_unit_test(parts_of_a_path),
    };
    return cmocka_run_group_tests_name("output", tests, setup, teardown);
}
