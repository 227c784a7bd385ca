/* key_doc.c -- `ssdcluster keys`: the config's keys as key_table.h has
 * them, as text or as the Markdown tables of docs/config.md. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "schema.h"

#define KEYS_USAGE                                                                                 \
	"usage: ssdcluster keys [WORKLOAD] [--markdown]\n"                                         \
	"\n"                                                                                       \
	"Prints every key a config's phases and targets take: the workloads that take\n"           \
	"it, its type and range, its built-in default and what it does.  With\n"                   \
	"WORKLOAD (io, kvcache, checkpoint, ingest, fill, idle, training) only the\n"              \
	"keys a phase of that workload takes, with that workload's defaults.\n"                    \
	"--markdown prints the tables of docs/config.md (which a test keeps equal to\n"            \
	"it).  The rules between keys (alternatives, sweeps, defaults:, --set) are in\n"           \
	"docs/config.md.\n"

/* "io, kvcache, fill" for key k (every workload: "any"). */
static const char *takers(enum pkey k, char *buf, size_t len)
{
	const char *names[SC_WORKLOAD_COUNT + 1];
	size_t n = 0;

	for (int w = 0; w < SC_WORKLOAD_COUNT; w++)
		if (sc_cfg_takes((uint64_t)w, k))
			names[n++] = sc_workload_name((enum sc_workload)w);
	names[n] = NULL;
	if (n == SC_WORKLOAD_COUNT)
		return "any";
	if (n == SC_WORKLOAD_COUNT - 1 && !sc_cfg_takes(SC_WORKLOAD_IDLE, k))
		return "any but idle";
	return sc_cfg_join(buf, len, names);
}

/* Key k's type and range, and " (a list sweeps)" where it does. */
static const char *key_type(enum pkey k, uint64_t w, char *buf, size_t len)
{
	struct cfg_keydef def = sc_cfg_key_def(w, k);
	size_t at;

	sc_cfg_type_text(&def, buf, len);
	at = strlen(buf);
	if (def.sweep && at < len)
		snprintf(buf + at, len - at, "; a list sweeps");
	return buf;
}

static void print_text(FILE *f, int only)
{
	char who[96], type[96], d[96];

	fprintf(f, "phase keys%s%s (key: workloads; type and range; default, - for none)\n",
		only >= 0 ? " of workload " : "",
		only >= 0 ? sc_workload_name((enum sc_workload)only) : "");
	for (int k = 0; k < PK_COUNT; k++) {
		uint64_t w = only >= 0 ? (uint64_t)only : SC_WORKLOAD_IO;
		const char *dflt = sc_cfg_keys[k].dflt;

		if (only >= 0 && !sc_cfg_takes(w, (enum pkey)k))
			continue;
		if (only >= 0) /* that workload's own default */
			dflt = sc_cfg_default_said((enum pkey)k, w, d, sizeof(d));
		fprintf(f, "  %s: %s; %s; default %s\n      %s\n", sc_cfg_keys[k].name,
			takers((enum pkey)k, who, sizeof(who)),
			key_type((enum pkey)k, w, type, sizeof(type)), dflt, sc_cfg_keys[k].help);
	}
	if (only >= 0)
		return;
	fprintf(f, "target keys (key: type and range; default, - for none)\n");
	for (int k = 0; k < TK_COUNT; k++)
		fprintf(f, "  %s: %s; default %s\n      %s\n", sc_cfg_target_keys[k],
			sc_cfg_type_text(&sc_cfg_target_defs[k], type, sizeof(type)),
			sc_cfg_target_dflt[k], sc_cfg_target_help[k]);
}

/* A table cell: '|' would end it. */
static void cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : (char[2]){*s, '\0'}, f);
	fputc(' ', f);
}

static void print_markdown(FILE *f)
{
	char who[96], type[96];

	fputs("| key | workloads | type and range | default | what it does |\n"
	      "|---|---|---|---|---|\n",
	      f);
	for (int k = 0; k < PK_COUNT; k++) {
		cell(f, sc_cfg_keys[k].name);
		cell(f, takers((enum pkey)k, who, sizeof(who)));
		/* the io view; fsync's kind per workload is in its help */
		cell(f, key_type((enum pkey)k, SC_WORKLOAD_IO, type, sizeof(type)));
		cell(f, sc_cfg_keys[k].dflt);
		cell(f, sc_cfg_keys[k].help);
		fputs("|\n", f);
	}
	fputs("\n| target key | type and range | default | what it does |\n"
	      "|---|---|---|---|\n",
	      f);
	for (int k = 0; k < TK_COUNT; k++) {
		cell(f, sc_cfg_target_keys[k]);
		cell(f, sc_cfg_type_text(&sc_cfg_target_defs[k], type, sizeof(type)));
		cell(f, sc_cfg_target_dflt[k]);
		cell(f, sc_cfg_target_help[k]);
		fputs("|\n", f);
	}
}

int sc_config_keys_command(int argc, char **argv)
{
	bool markdown = false;
	int only = -1;

	for (int i = 0; i < argc; i++) {
		int w = sc_workload_parse(argv[i]);

		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(KEYS_USAGE, stdout);
			return 0;
		}
		if (strcmp(argv[i], "--markdown") == 0) {
			markdown = true;
		} else if (w >= 0 && only < 0) {
			only = w;
		} else {
			fprintf(
			    stderr,
			    "ssdcluster: keys: unexpected argument %s (give a workload: io, "
			    "kvcache, checkpoint, ingest, fill, idle or training; or --markdown)\n",
			    argv[i]);
			return 2;
		}
	}
	if (markdown && only >= 0) {
		fprintf(stderr, "ssdcluster: keys: --markdown prints every key (leave out %s)\n",
			sc_workload_name((enum sc_workload)only));
		return 2;
	}
	if (markdown)
		print_markdown(stdout);
	else
		print_text(stdout, only);
	return fflush(stdout) == 0 ? 0 : 1;
}
