/* jni_util.c — the JNI layer's plumbing (see jni_util.h): turning the C
 * layer's errors into Java exceptions, buffers and strings. */
#include <stdio.h>
#include <string.h>

#include "compat/monosat/jni/jni_util.h"

static _Thread_local int pending;
static _Thread_local char pending_message[600];

/* The C layer's error handler while the JVM has the library loaded: keep
 * the message for jni_check() instead of aborting the JVM. */
static void keep_error(const char *message, void *data) {
    (void)data;
    if (pending) return;                  /* the first error of a call tells most */
    pending = 1;
    snprintf(pending_message, sizeof pending_message, "gsat: %s", message);
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)vm; (void)reserved;
    monosat_set_error_handler(keep_error, NULL);
    return JNI_VERSION_1_6;
}

static void throw_new(JNIEnv *env, const char *cls, const char *message) {
    if ((*env)->ExceptionCheck(env)) return;
    jclass c = (*env)->FindClass(env, cls);
    if (c) (*env)->ThrowNew(env, c, message);
}

int jni_check(JNIEnv *env) {
    if (!pending) return 0;
    pending = 0;
    throw_new(env, "java/lang/IllegalStateException", pending_message);
    return 1;
}

void jni_unsupported(JNIEnv *env, const char *name) {
    char msg[300];
    snprintf(msg, sizeof msg, "gsat: MonoSAT's %s is not supported by gsat's MonoSAT layer "
             "(it covers graph acyclicity: see gsat's doc/backend.md)", name);
    throw_new(env, "java/lang/UnsupportedOperationException", msg);
}

int *jni_ints(JNIEnv *env, jobject buffer) {
    return buffer ? (int *)(*env)->GetDirectBufferAddress(env, buffer) : NULL;
}

jni_str jni_str_get(JNIEnv *env, jstring js) {
    jni_str s = {env, js, js ? (*env)->GetStringUTFChars(env, js, NULL) : NULL};
    return s;
}

void jni_str_release(jni_str *str) {
    if (str->js && str->s) (*str->env)->ReleaseStringUTFChars(str->env, str->js, str->s);
    str->s = NULL;
}
