/* jni_solver.c — the JNI functions of monosat.MonosatJNI for the solver,
 * variables, (absent) names, decision hints, clauses, solving, limits,
 * the model and conflict clauses: each one calls include/monosat.h. */
#include <string.h>

#include "compat/monosat/jni/jni_util.h"

/* JNI fixes every parameter list; many functions ignore the class. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define CHECKED(T, call) do { T r_ = (call); jni_check(env); return r_; } while (0)
#define CHECKED_VOID(call) do { call; jni_check(env); } while (0)

/* ---- solver -------------------------------------------------------------------- */

JNIEXPORT jstring JNICALL JNI_FN(getVersion)(JNIEnv *env, jclass cls) { return (*env)->NewStringUTF(env, getVersion()); }
JNIEXPORT jint JNICALL JNI_FN(varToLit)(JNIEnv *env, jclass cls, jint var, jboolean neg) { return varToLit(var, neg); }
JNIEXPORT jint JNICALL JNI_FN(litToVar)(JNIEnv *env, jclass cls, jint lit) { return litToVar(lit); }

JNIEXPORT jlong JNICALL JNI_FN(newSolver__)(JNIEnv *env, jclass cls) { CHECKED(jlong, HANDLE(newSolver())); }

JNIEXPORT jlong JNICALL JNI_FN(newSolver__Ljava_lang_String_2)(JNIEnv *env, jclass cls, jstring args) {
    jni_str a = jni_str_get(env, args);
    SolverPtr S = newSolver_arg(a.s);
    jni_str_release(&a);
    CHECKED(jlong, HANDLE(S));
}

JNIEXPORT void JNICALL JNI_FN(deleteSolver)(JNIEnv *env, jclass cls, jlong s) { deleteSolver(SOLVER(s)); }
JNIEXPORT jboolean JNICALL JNI_FN(ok)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jboolean, ok(SOLVER(s))); }
JNIEXPORT void JNICALL JNI_FN(disablePreprocessing)(JNIEnv *env, jclass cls, jlong s) { CHECKED_VOID(disablePreprocessing(SOLVER(s))); }
JNIEXPORT jboolean JNICALL JNI_FN(disallowLiteralSimplification)(JNIEnv *env, jclass cls, jlong s, jint var) {
    CHECKED(jboolean, disallowLiteralSimplification(SOLVER(s), var));
}
JNIEXPORT void JNICALL JNI_FN(backtrack)(JNIEnv *env, jclass cls, jlong s) { CHECKED_VOID(backtrack(SOLVER(s))); }

/* ---- variables ------------------------------------------------------------------- */

JNIEXPORT jint JNICALL JNI_FN(newVar)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jint, newVar(SOLVER(s))); }
JNIEXPORT jint JNICALL JNI_FN(true_1lit)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jint, true_lit(SOLVER(s))); }
JNIEXPORT jint JNICALL JNI_FN(nVars)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jint, nVars(SOLVER(s))); }
JNIEXPORT jint JNICALL JNI_FN(nClauses)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jint, nClauses(SOLVER(s))); }
JNIEXPORT jint JNICALL JNI_FN(nLearnedClauses)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jint, nLearnedClauses(SOLVER(s))); }
JNIEXPORT void JNICALL JNI_FN(releaseLiteral)(JNIEnv *env, jclass cls, jlong s, jint lit) { CHECKED_VOID(releaseLiteral(SOLVER(s), lit)); }

/* Names: the layer gives none, so every question about them has the
 * answer "no name"; giving a name is unsupported (jni_unsupported.c). */
JNIEXPORT jstring JNICALL JNI_FN(getLiteralName)(JNIEnv *env, jclass cls, jlong s, jint lit, jint index) {
    const char *name = getLiteralName(SOLVER(s), lit, index);
    if (jni_check(env)) return NULL;
    return (*env)->NewStringUTF(env, name);
}
JNIEXPORT jint JNICALL JNI_FN(literalNameCount)(JNIEnv *env, jclass cls, jlong s, jint lit) { CHECKED(jint, literalNameCount(SOLVER(s), lit)); }
JNIEXPORT jboolean JNICALL JNI_FN(literalHasName)(JNIEnv *env, jclass cls, jlong s, jint lit, jstring name) {
    CHECKED(jboolean, literalNameCount(SOLVER(s), lit) > 0);
}
JNIEXPORT jboolean JNICALL JNI_FN(hasLiteralWithName)(JNIEnv *env, jclass cls, jlong s, jstring name) {
    CHECKED(jboolean, hasLiteralWithName(SOLVER(s), ""));
}
JNIEXPORT jint JNICALL JNI_FN(nNamedLiterals)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jint, nNamedLiterals(SOLVER(s))); }
JNIEXPORT jint JNICALL JNI_FN(getLiteral)(JNIEnv *env, jclass cls, jlong s, jstring name) {
    (void)nNamedLiterals(SOLVER(s));
    CHECKED(jint, -1);
}
JNIEXPORT jboolean JNICALL JNI_FN(variableHasName)(JNIEnv *env, jclass cls, jlong s, jint var, jstring name) {
    CHECKED(jboolean, literalNameCount(SOLVER(s), 2 * var) > 0);
}
JNIEXPORT jstring JNICALL JNI_FN(getVariableName)(JNIEnv *env, jclass cls, jlong s, jint var, jint index) {
    const char *name = getLiteralName(SOLVER(s), 2 * var, index);
    if (jni_check(env)) return NULL;
    return (*env)->NewStringUTF(env, name);
}
JNIEXPORT jint JNICALL JNI_FN(variableNameCount)(JNIEnv *env, jclass cls, jlong s, jint var) { CHECKED(jint, literalNameCount(SOLVER(s), 2 * var)); }
JNIEXPORT jboolean JNICALL JNI_FN(hasVariableWithName)(JNIEnv *env, jclass cls, jlong s, jstring name) {
    CHECKED(jboolean, hasLiteralWithName(SOLVER(s), ""));
}
JNIEXPORT jint JNICALL JNI_FN(nNamedVariables)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jint, nNamedLiterals(SOLVER(s))); }
JNIEXPORT jint JNICALL JNI_FN(getVariable)(JNIEnv *env, jclass cls, jlong s, jstring name) {
    (void)nNamedLiterals(SOLVER(s));
    CHECKED(jint, -1);
}

/* ---- decision hints ------------------------------------------------------------- */

JNIEXPORT void JNICALL JNI_FN(setDecisionVar)(JNIEnv *env, jclass cls, jlong s, jint var, jboolean d) { CHECKED_VOID(setDecisionVar(SOLVER(s), var, d)); }
JNIEXPORT jboolean JNICALL JNI_FN(isDecisionVar)(JNIEnv *env, jclass cls, jlong s, jint var) { CHECKED(jboolean, isDecisionVar(SOLVER(s), var)); }
JNIEXPORT jint JNICALL JNI_FN(getDecisionPriority)(JNIEnv *env, jclass cls, jlong s, jint var) { CHECKED(jint, getDecisionPriority(SOLVER(s), var)); }
JNIEXPORT void JNICALL JNI_FN(setDecisionPolarity)(JNIEnv *env, jclass cls, jlong s, jint var, jboolean b) { CHECKED_VOID(setDecisionPolarity(SOLVER(s), var, b)); }
JNIEXPORT jboolean JNICALL JNI_FN(getDecisionPolarity)(JNIEnv *env, jclass cls, jlong s, jint var) { CHECKED(jboolean, getDecisionPolarity(SOLVER(s), var)); }

/* ---- clauses ----------------------------------------------------------------------- */

JNIEXPORT jboolean JNICALL JNI_FN(addClause)(JNIEnv *env, jclass cls, jlong s, jobject lits, jint n) {
    CHECKED(jboolean, addClause(SOLVER(s), jni_ints(env, lits), n));
}
JNIEXPORT jboolean JNICALL JNI_FN(addUnitClause)(JNIEnv *env, jclass cls, jlong s, jint a) { CHECKED(jboolean, addUnitClause(SOLVER(s), a)); }
JNIEXPORT jboolean JNICALL JNI_FN(addBinaryClause)(JNIEnv *env, jclass cls, jlong s, jint a, jint b) { CHECKED(jboolean, addBinaryClause(SOLVER(s), a, b)); }
JNIEXPORT jboolean JNICALL JNI_FN(addTertiaryClause)(JNIEnv *env, jclass cls, jlong s, jint a, jint b, jint c) {
    CHECKED(jboolean, addTertiaryClause(SOLVER(s), a, b, c));
}
JNIEXPORT void JNICALL JNI_FN(at_1most_1one_1lit)(JNIEnv *env, jclass cls, jlong s, jobject lits, jint n) {
    CHECKED_VOID(at_most_one_lit(SOLVER(s), jni_ints(env, lits), n));
}

/* ---- solving, limits ----------------------------------------------------------- */

JNIEXPORT jboolean JNICALL JNI_FN(solve)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jboolean, solve(SOLVER(s))); }
JNIEXPORT jboolean JNICALL JNI_FN(solveAssumptions)(JNIEnv *env, jclass cls, jlong s, jobject lits, jint n) {
    CHECKED(jboolean, solveAssumptions(SOLVER(s), jni_ints(env, lits), n));
}
JNIEXPORT jint JNICALL JNI_FN(solveLimited)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jint, solveLimited(SOLVER(s))); }
JNIEXPORT jint JNICALL JNI_FN(solveAssumptionsLimited)(JNIEnv *env, jclass cls, jlong s, jobject lits, jint n) {
    CHECKED(jint, solveAssumptionsLimited(SOLVER(s), jni_ints(env, lits), n));
}
JNIEXPORT void JNICALL JNI_FN(setTimeLimit)(JNIEnv *env, jclass cls, jlong s, jint secs) { CHECKED_VOID(setTimeLimit(SOLVER(s), secs)); }
JNIEXPORT void JNICALL JNI_FN(setConflictLimit)(JNIEnv *env, jclass cls, jlong s, jint n) { CHECKED_VOID(setConflictLimit(SOLVER(s), n)); }
JNIEXPORT void JNICALL JNI_FN(setPropagationLimit)(JNIEnv *env, jclass cls, jlong s, jint n) { CHECKED_VOID(setPropagationLimit(SOLVER(s), n)); }
JNIEXPORT jlong JNICALL JNI_FN(nConflicts)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jlong, (jlong)nConflicts(SOLVER(s))); }
JNIEXPORT jlong JNICALL JNI_FN(nPropagations)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jlong, (jlong)nPropagations(SOLVER(s))); }
JNIEXPORT jboolean JNICALL JNI_FN(lastSolutionWasOptimal)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jboolean, lastSolutionWasOptimal(SOLVER(s))); }
JNIEXPORT void JNICALL JNI_FN(clearOptimizationObjectives)(JNIEnv *env, jclass cls, jlong s) { CHECKED_VOID(clearOptimizationObjectives(SOLVER(s))); }

JNIEXPORT jint JNICALL JNI_FN(getConflictClause)(JNIEnv *env, jclass cls, jlong s, jobject store, jint max) {
    CHECKED(jint, getConflictClause(SOLVER(s), jni_ints(env, store), store ? max : 0));
}
JNIEXPORT jint JNICALL JNI_FN(minimizeUnsatCore)(JNIEnv *env, jclass cls, jlong s, jobject lits, jint n) {
    CHECKED(jint, minimizeUnsatCore(SOLVER(s), jni_ints(env, lits), n));
}
JNIEXPORT void JNICALL JNI_FN(minimizeConflictClause)(JNIEnv *env, jclass cls, jlong s) { CHECKED_VOID(minimizeConflictClause(SOLVER(s))); }

/* ---- the model ------------------------------------------------------------------- */

JNIEXPORT jboolean JNICALL JNI_FN(hasModel)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jboolean, hasModel(SOLVER(s))); }
JNIEXPORT jint JNICALL JNI_FN(getModel_1Literal)(JNIEnv *env, jclass cls, jlong s, jint lit) { CHECKED(jint, getModel_Literal(SOLVER(s), lit)); }
JNIEXPORT jint JNICALL JNI_FN(getConstantModel_1Literal)(JNIEnv *env, jclass cls, jlong s, jint lit) {
    CHECKED(jint, getConstantModel_Literal(SOLVER(s), lit));
}
