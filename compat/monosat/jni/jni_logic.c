/* jni_logic.c — the JNI functions of monosat.MonosatJNI for the Logic
 * helpers (gates and assertions): each one calls include/monosat.h. */
#include "compat/monosat/jni/jni_util.h"

/* JNI fixes every parameter list; the class is never used. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define CHECKED(T, call) do { T r_ = (call); jni_check(env); return r_; } while (0)
#define CHECKED_VOID(call) do { call; jni_check(env); } while (0)

/* int NAME(long s, int a, int b) and int NAMEs(long s, IntBuffer lits, int n) */
#define GATE2(jname, cfn) \
    JNIEXPORT jint JNICALL JNI_FN(jname)(JNIEnv *env, jclass cls, jlong s, jint a, jint b) { CHECKED(jint, cfn(SOLVER(s), a, b)); }
#define GATEN(jname, cfn) \
    JNIEXPORT jint JNICALL JNI_FN(jname)(JNIEnv *env, jclass cls, jlong s, jobject lits, jint n) { \
        CHECKED(jint, cfn(SOLVER(s), jni_ints(env, lits), n)); }
#define ASSERT2(jname, cfn) \
    JNIEXPORT void JNICALL JNI_FN(jname)(JNIEnv *env, jclass cls, jlong s, jint a, jint b) { CHECKED_VOID(cfn(SOLVER(s), a, b)); }
#define ASSERTN(jname, cfn) \
    JNIEXPORT void JNICALL JNI_FN(jname)(JNIEnv *env, jclass cls, jlong s, jobject lits, jint n) { \
        CHECKED_VOID(cfn(SOLVER(s), jni_ints(env, lits), n)); }

GATE2(And, And) GATE2(Or, Or) GATE2(Nand, Nand) GATE2(Nor, Nor) GATE2(Xor, Xor) GATE2(Xnor, Xnor) GATE2(Implies, Implies)
GATEN(Ands, Ands) GATEN(Ors, Ors) GATEN(Nands, Nands) GATEN(Nors, Nors) GATEN(Xors, Xors) GATEN(Xnors, Xnors)
GATEN(ImpliesOr, ImpliesOr)
ASSERT2(AssertOr, AssertOr) ASSERT2(AssertAnd, AssertAnd) ASSERT2(AssertNand, AssertNand) ASSERT2(AssertNor, AssertNor)
ASSERT2(AssertXor, AssertXor) ASSERT2(AssertXnor, AssertXnor) ASSERT2(AssertImplies, AssertImplies)
ASSERT2(AssertEqual, AssertEqual)
ASSERTN(AssertOrs, AssertOrs) ASSERTN(AssertAnds, AssertAnds) ASSERTN(AssertNands, AssertNands) ASSERTN(AssertNors, AssertNors)
ASSERTN(AssertXors, AssertXors) ASSERTN(AssertXnors, AssertXnors) ASSERTN(AssertAllSame, AssertAllSame)
ASSERTN(AssertAMO, AssertAMO) ASSERTN(AssertExactlyOne, AssertExactlyOne)

JNIEXPORT jint JNICALL JNI_FN(And_1)(JNIEnv *env, jclass cls, jlong s, jint a, jint b, jint out) { CHECKED(jint, And_(SOLVER(s), a, b, out)); }
JNIEXPORT jint JNICALL JNI_FN(Or_1)(JNIEnv *env, jclass cls, jlong s, jint a, jint b, jint out) { CHECKED(jint, Or_(SOLVER(s), a, b, out)); }
JNIEXPORT jint JNICALL JNI_FN(Implies_1)(JNIEnv *env, jclass cls, jlong s, jint a, jint b, jint out) { CHECKED(jint, Implies_(SOLVER(s), a, b, out)); }
JNIEXPORT jint JNICALL JNI_FN(Ands_1)(JNIEnv *env, jclass cls, jlong s, jobject lits, jint n, jint out) {
    CHECKED(jint, Ands_(SOLVER(s), jni_ints(env, lits), n, out));
}
JNIEXPORT jint JNICALL JNI_FN(Ors_1)(JNIEnv *env, jclass cls, jlong s, jobject lits, jint n, jint out) {
    CHECKED(jint, Ors_(SOLVER(s), jni_ints(env, lits), n, out));
}
JNIEXPORT jint JNICALL JNI_FN(ImpliesOr_1)(JNIEnv *env, jclass cls, jlong s, jobject lits, jint n, jint out) {
    CHECKED(jint, ImpliesOr_(SOLVER(s), jni_ints(env, lits), n, out));
}
/* MonosatJNI.ImpliesAnd takes the output literal: CircuitC's ImpliesAnd_ */
JNIEXPORT jint JNICALL JNI_FN(ImpliesAnd)(JNIEnv *env, jclass cls, jlong s, jobject lits, jint n, jint out) {
    CHECKED(jint, ImpliesAnd_(SOLVER(s), jni_ints(env, lits), n, out));
}
JNIEXPORT jint JNICALL JNI_FN(Ite)(JNIEnv *env, jclass cls, jlong s, jint c, jint t, jint e) { CHECKED(jint, Ite(SOLVER(s), c, t, e)); }
JNIEXPORT jint JNICALL JNI_FN(Ite_1)(JNIEnv *env, jclass cls, jlong s, jint c, jint t, jint e, jint out) {
    CHECKED(jint, Ite_(SOLVER(s), c, t, e, out));
}
JNIEXPORT void JNICALL JNI_FN(AssertImpliesAnd)(JNIEnv *env, jclass cls, jlong s, jint implies, jobject lits, jint n) {
    CHECKED_VOID(AssertImpliesAnd(SOLVER(s), implies, jni_ints(env, lits), n));
}
JNIEXPORT void JNICALL JNI_FN(AssertImpliesOr)(JNIEnv *env, jclass cls, jlong s, jint implies, jobject lits, jint n) {
    CHECKED_VOID(AssertImpliesOr(SOLVER(s), implies, jni_ints(env, lits), n));
}
JNIEXPORT void JNICALL JNI_FN(Assert)(JNIEnv *env, jclass cls, jlong s, jint a) { CHECKED_VOID(Assert(SOLVER(s), a)); }
JNIEXPORT void JNICALL JNI_FN(AssertOrTertiary)(JNIEnv *env, jclass cls, jlong s, jint a, jint b, jint c) {
    CHECKED_VOID(AssertOrTertiary(SOLVER(s), a, b, c));
}
