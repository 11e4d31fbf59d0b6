/* html_out.h — writing text into HTML and SVG: the one escaper every HTML
 * or SVG output of the checker uses (check --report).
 *
 * '&', '<', '>', '"' and '\'' become entities, so the text is safe in
 * element content and in quoted attribute values alike; a control
 * character other than tab and newline (invalid in HTML) is written as
 * the visible text "\xNN"; every other byte (UTF-8 included) is copied.
 * NULL is written as nothing.  html_write_escaped_max writes at most max
 * bytes of s, cut before a UTF-8 continuation byte, then "..." when s was
 * longer (for labels in a drawing). */
#ifndef ISOCHECK_HTML_OUT_H
#define ISOCHECK_HTML_OUT_H

#include <stddef.h>
#include <stdio.h>

void html_write_escaped(FILE *out, const char *s);
void html_write_escaped_max(FILE *out, const char *s, size_t max);

#endif
