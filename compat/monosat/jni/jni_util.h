/* jni_util.h — what the JNI functions behind MonoSAT's Java class
 * monosat.MonosatJNI share (the .c files of compat/monosat/jni).
 *
 * Each JNI function unpacks its arguments (handles are the C API's
 * pointers carried in a jlong; int arrays come as direct IntBuffers),
 * calls the C API of include/monosat.h and then jni_check(): an error the
 * C layer reported on this thread becomes a Java IllegalStateException
 * with its message.  Functions outside the layer throw
 * UnsupportedOperationException naming themselves (jni_unsupported.c). */
#ifndef GSAT_JNI_UTIL_H
#define GSAT_JNI_UTIL_H

#include <stdint.h>
#include <jni.h>

#include "monosat.h"

#define JNI_FN(name) Java_monosat_MonosatJNI_##name
#define SOLVER(p) ((SolverPtr)(intptr_t)(p))
#define GRAPH(p) ((GraphTheorySolver_long)(intptr_t)(p))
#define BVPTR(p) ((BVTheoryPtr)(intptr_t)(p))
#define HANDLE(ptr) ((jlong)(intptr_t)(ptr))

/* The ints of a direct IntBuffer (NULL for a null buffer). */
int *jni_ints(JNIEnv *env, jobject buffer);
/* If the C layer reported an error on this thread since the last check,
 * throw it as a Java exception (and forget it).  Returns 1 if it threw. */
int jni_check(JNIEnv *env);
/* Throw UnsupportedOperationException for MonosatJNI.name. */
void jni_unsupported(JNIEnv *env, const char *name);

/* A Java string as modified UTF-8 for the duration of a call. */
typedef struct jni_str { JNIEnv *env; jstring js; const char *s; } jni_str;
jni_str jni_str_get(JNIEnv *env, jstring js);
void jni_str_release(jni_str *str);

#endif
