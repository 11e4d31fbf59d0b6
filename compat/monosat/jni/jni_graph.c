/* jni_graph.c — the JNI functions of monosat.MonosatJNI for graphs,
 * nodes, edges, acyclic_directed and the bit-vector handle every Java
 * Solver asks for: each one calls include/monosat.h. */
#include "compat/monosat/jni/jni_util.h"

/* JNI fixes every parameter list; the class is never used. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define CHECKED(T, call) do { T r_ = (call); jni_check(env); return r_; } while (0)

static jstring string_or_null(JNIEnv *env, const char *s) {
    if (jni_check(env)) return NULL;
    return (*env)->NewStringUTF(env, s ? s : "");
}

JNIEXPORT jlong JNICALL JNI_FN(newGraph)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jlong, HANDLE(newGraph(SOLVER(s)))); }

JNIEXPORT jlong JNICALL JNI_FN(newGraph_1Named)(JNIEnv *env, jclass cls, jlong s, jstring name, jint bitwidth) {
    jni_str n = jni_str_get(env, name);
    GraphTheorySolver_long g = newGraph_Named(SOLVER(s), n.s, bitwidth);
    jni_str_release(&n);
    CHECKED(jlong, HANDLE(g));
}

JNIEXPORT jlong JNICALL JNI_FN(getGraph)(JNIEnv *env, jclass cls, jlong s, jstring name) {
    jni_str n = jni_str_get(env, name);
    GraphTheorySolver_long g = getGraph(SOLVER(s), n.s);
    jni_str_release(&n);
    CHECKED(jlong, HANDLE(g));
}

JNIEXPORT jstring JNICALL JNI_FN(getGraphName)(JNIEnv *env, jclass cls, jlong s, jlong g) {
    return string_or_null(env, getGraphName(SOLVER(s), GRAPH(g)));
}
JNIEXPORT jint JNICALL JNI_FN(getGraphWidth)(JNIEnv *env, jclass cls, jlong s, jlong g) { CHECKED(jint, getGraphWidth(SOLVER(s), GRAPH(g))); }
JNIEXPORT jint JNICALL JNI_FN(newNode)(JNIEnv *env, jclass cls, jlong s, jlong g) { CHECKED(jint, newNode(SOLVER(s), GRAPH(g))); }

JNIEXPORT jint JNICALL JNI_FN(newNode_1Named)(JNIEnv *env, jclass cls, jlong s, jlong g, jstring name) {
    jni_str n = jni_str_get(env, name);
    int node = newNode_Named(SOLVER(s), GRAPH(g), n.s);
    jni_str_release(&n);
    CHECKED(jint, node);
}

JNIEXPORT jboolean JNICALL JNI_FN(hasNamedNode)(JNIEnv *env, jclass cls, jlong s, jlong g, jstring name) {
    CHECKED(jboolean, hasNamedNode(SOLVER(s), GRAPH(g), ""));
}
JNIEXPORT jstring JNICALL JNI_FN(getNodeName)(JNIEnv *env, jclass cls, jlong s, jlong g, jint node) {
    return string_or_null(env, getNodeName(SOLVER(s), GRAPH(g), node));
}
JNIEXPORT jint JNICALL JNI_FN(newEdge)(JNIEnv *env, jclass cls, jlong s, jlong g, jint from, jint to, jlong w) {
    CHECKED(jint, newEdge(SOLVER(s), GRAPH(g), from, to, w));
}
JNIEXPORT jint JNICALL JNI_FN(nNodes)(JNIEnv *env, jclass cls, jlong s, jlong g) { CHECKED(jint, nNodes(SOLVER(s), GRAPH(g))); }
JNIEXPORT jint JNICALL JNI_FN(nEdges)(JNIEnv *env, jclass cls, jlong s, jlong g) { CHECKED(jint, nEdges(SOLVER(s), GRAPH(g))); }
JNIEXPORT jint JNICALL JNI_FN(getEdgeLiteralN)(JNIEnv *env, jclass cls, jlong s, jlong g, jint n) { CHECKED(jint, getEdgeLiteralN(SOLVER(s), GRAPH(g), n)); }
JNIEXPORT jint JNICALL JNI_FN(getEdge_1to)(JNIEnv *env, jclass cls, jlong s, jlong g, jint e) { CHECKED(jint, getEdge_to(SOLVER(s), GRAPH(g), e)); }
JNIEXPORT jint JNICALL JNI_FN(getEdge_1from)(JNIEnv *env, jclass cls, jlong s, jlong g, jint e) { CHECKED(jint, getEdge_from(SOLVER(s), GRAPH(g), e)); }
JNIEXPORT jlong JNICALL JNI_FN(getEdge_1weight_1const)(JNIEnv *env, jclass cls, jlong s, jlong g, jint e) {
    CHECKED(jlong, getEdge_weight_const(SOLVER(s), GRAPH(g), e));
}
JNIEXPORT jboolean JNICALL JNI_FN(edgeHasBVWeight)(JNIEnv *env, jclass cls, jlong s, jlong g, jint e) {
    CHECKED(jboolean, edgeHasBVWeight(SOLVER(s), GRAPH(g), e));
}
JNIEXPORT jint JNICALL JNI_FN(acyclic_1directed)(JNIEnv *env, jclass cls, jlong s, jlong g) { CHECKED(jint, acyclic_directed(SOLVER(s), GRAPH(g))); }

JNIEXPORT jlong JNICALL JNI_FN(initBVTheory)(JNIEnv *env, jclass cls, jlong s) { CHECKED(jlong, HANDLE(initBVTheory(SOLVER(s)))); }
JNIEXPORT jint JNICALL JNI_FN(nBitvectors)(JNIEnv *env, jclass cls, jlong s, jlong bv) { CHECKED(jint, nBitvectors(SOLVER(s), BVPTR(bv))); }
