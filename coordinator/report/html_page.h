/* html_page.h -- the frame the HTML pages share (report.html,
 * compare.html): one self-contained document with its style sheet inline,
 * no script, nothing fetched; readable printed in grey.  Writes to f;
 * output errors are the caller's to check (ferror(f)). */
#ifndef SC_REPORT_HTML_PAGE_H
#define SC_REPORT_HTML_PAGE_H

#include <stdio.h>

/* <!DOCTYPE html>, <head> with title and the inline style, <body>, an <h1>
 * with title and, when subtitle is not NULL, a line under it.  The page is
 * well-formed XML as well as HTML (xmllint --noout passes on it). */
void sc_html_page_begin(FILE *f, const char *title, const char *subtitle);
void sc_html_page_end(FILE *f);

/* s with &, <, >, " and ' escaped (NULL writes nothing). */
void sc_html_text(FILE *f, const char *s);

/* <h2 id="id">title</h2>, or <h3> when level is 3; id may be NULL. */
void sc_html_heading(FILE *f, int level, const char *id, const char *title);

/* A table: sc_html_table_begin writes <table> with an optional <caption>
 * and a header row of n cells; sc_html_row_begin / _cell / _num /
 * _row_end a body row; numeric cells are right-aligned. */
void sc_html_table_begin(FILE *f, const char *caption, const char *const *headers, unsigned n);
void sc_html_row_begin(FILE *f);
void sc_html_cell(FILE *f, const char *text);
/* A number cell printed with printf format fmt ("%.1f"); a value that is
 * not finite prints "-". */
void sc_html_num(FILE *f, const char *fmt, double v);
void sc_html_row_end(FILE *f);
void sc_html_table_end(FILE *f);

/* <p class="note">text</p>. */
void sc_html_note(FILE *f, const char *text);

#endif
