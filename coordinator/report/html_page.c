/* html_page.c -- the frame the HTML pages share: document head with the
 * inline style sheet, headings, tables and notes, all text escaped. */
#include "html_page.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The whole style sheet: system fonts, tables with right-aligned numbers,
 * charts that shrink with the window, and black on white when printed. */
static const char page_style[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,"
    "sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;color:#222;"
    "background:#fff;line-height:1.4}\n"
    "h1{font-size:1.6em;margin-bottom:0.2em}\n"
    "h2{font-size:1.3em;margin-top:1.8em;border-bottom:1px solid #ccc}\n"
    "h3{font-size:1.1em;margin-top:1.4em}\n"
    "p.subtitle{color:#555;margin-top:0}\n"
    "p.note{color:#444;font-size:0.92em;border-left:3px solid #bbb;padding-left:0.6em}\n"
    "table{border-collapse:collapse;margin:0.8em 0;font-size:0.92em}\n"
    "caption{text-align:left;font-weight:bold;padding:0.3em 0}\n"
    "th,td{border:1px solid #ccc;padding:0.25em 0.6em;vertical-align:top}\n"
    "th{background:#f0f0f0;text-align:left}\n"
    "td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "svg{max-width:100%;height:auto;display:block;margin:0.8em 0}\n"
    "@media print{body{max-width:none;color:#000}h2{page-break-after:avoid}"
    "svg,table{page-break-inside:avoid}}\n";

void sc_html_text(FILE *f, const char *s)
{
	static const char special[] = "&<>\"'";
	static const char *const entity[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};

	for (; s && *s; s++) {
		const char *e = strchr(special, *s);

		if (e)
			fputs(entity[e - special], f);
		else
			fputc(*s, f);
	}
}

void sc_html_page_begin(FILE *f, const char *title, const char *subtitle)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	      "<title>",
	      f);
	sc_html_text(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", page_style);
	sc_html_text(f, title);
	fputs("</h1>\n", f);
	if (subtitle) {
		fputs("<p class=\"subtitle\">", f);
		sc_html_text(f, subtitle);
		fputs("</p>\n", f);
	}
}

void sc_html_page_end(FILE *f)
{
	fputs("</body>\n</html>\n", f);
}

void sc_html_heading(FILE *f, int level, const char *id, const char *title)
{
	int h = level == 3 ? 3 : 2;

	fprintf(f, "<h%d", h);
	if (id) {
		fputs(" id=\"", f);
		sc_html_text(f, id);
		fputc('"', f);
	}
	fputc('>', f);
	sc_html_text(f, title);
	fprintf(f, "</h%d>\n", h);
}

void sc_html_table_begin(FILE *f, const char *caption, const char *const *headers, unsigned n)
{
	fputs("<table>\n", f);
	if (caption) {
		fputs("<caption>", f);
		sc_html_text(f, caption);
		fputs("</caption>\n", f);
	}
	fputs("<thead><tr>", f);
	for (unsigned i = 0; i < n; i++) {
		fputs("<th>", f);
		sc_html_text(f, headers[i]);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
}

void sc_html_row_begin(FILE *f)
{
	fputs("<tr>", f);
}

void sc_html_cell(FILE *f, const char *text)
{
	fputs("<td>", f);
	sc_html_text(f, text);
	fputs("</td>", f);
}

void sc_html_num(FILE *f, const char *fmt, double v)
{
	char buf[64];

	if (isfinite(v))
		snprintf(buf, sizeof buf, fmt, v);
	else
		snprintf(buf, sizeof buf, "-");
	fputs("<td class=\"num\">", f);
	sc_html_text(f, buf);
	fputs("</td>", f);
}

void sc_html_row_end(FILE *f)
{
	fputs("</tr>\n", f);
}

void sc_html_table_end(FILE *f)
{
	fputs("</tbody>\n</table>\n", f);
}

void sc_html_note(FILE *f, const char *text)
{
	fputs("<p class=\"note\">", f);
	sc_html_text(f, text);
	fputs("</p>\n", f);
}
