/* html_out.c — the HTML text escaper (contract in html_out.h). */
#include "io/html_out.h"

#include <string.h>

static void put_escaped(FILE *out, unsigned char c) {
    switch (c) {
    case '&': fputs("&amp;", out); return;
    case '<': fputs("&lt;", out); return;
    case '>': fputs("&gt;", out); return;
    case '"': fputs("&quot;", out); return;
    case '\'': fputs("&#39;", out); return;
    default:
        if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) fprintf(out, "\\x%02x", c);
        else fputc(c, out);
    }
}

void html_write_escaped(FILE *out, const char *s) {
    for (; s && *s; s++) put_escaped(out, (unsigned char)*s);
}

void html_write_escaped_max(FILE *out, const char *s, size_t max) {
    if (!s) return;
    size_t n = strlen(s);
    if (n <= max) { html_write_escaped(out, s); return; }
    size_t cut = max;
    while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80) cut--;   /* not inside a UTF-8 character */
    for (size_t i = 0; i < cut; i++) put_escaped(out, (unsigned char)s[i]);
    fputs("...", out);
}
