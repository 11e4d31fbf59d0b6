/* gsat_main.c — placeholder until the engine lands. */
#include <stdio.h>
int main(void) { fprintf(stderr, "gsat: not built yet\n"); return 2; }
