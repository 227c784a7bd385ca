/* test_report_model.c -- a hand-made projection through report/model.c:
 * the text table (rows, units, marks, notes, warnings, basis) and the
 * JSON object (key order, figures left out when not given, null sizing). */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model/project.h"
#include "report/projection.h"

#define NS_PER_S 1e9

/* Three sizes: 8 (layout does not fit), 64 (within the samples), 4096
 * (beyond them, no drive count meets the target); checkpoint, policy,
 * sizing, endurance present, ingest not. */
static void make(struct sc_model_projection *p)
{
	memset(p, 0, sizeof(*p));
	sc_model_params_default(&p->params);
	p->params.trials = 100;
	snprintf(p->params.model, sizeof(p->params.model), "llama3.1-405b");
	p->params.tp = 8;
	p->params.pp = 16;
	p->params.zero_stage = 1;
	p->params.drives_per_node = 2;
	p->measured = true;
	snprintf(p->source, sizeof(p->source), "results.pb of run R1");
	snprintf(p->drives_per_node_from, sizeof(p->drives_per_node_from), "measured");
	for (int f = SC_MODEL_FIG_CKPT; f <= SC_MODEL_FIG_ENDURANCE; f++) {
		p->basis[f].present = true;
		snprintf(p->basis[f].inputs, SC_MODEL_TEXT_MAX, "inputs-%d", f);
		snprintf(p->basis[f].assumptions, SC_MODEL_TEXT_MAX, "assumptions-%d", f);
	}
	p->nrows = 3;
	p->rows[0].nodes = 8;
	snprintf(p->rows[0].why_not, sizeof(p->rows[0].why_not), "64 GPUs < TP x PP = 128");
	for (int i = 1; i < 3; i++) {
		struct sc_model_row *r = &p->rows[i];

		r->nodes = i == 1 ? 64 : 4096;
		r->layout_fits = true;
		r->dp = r->nodes / 16;
		r->drives_per_node = 2;
		r->ckpt_bytes = 5000000000000ull;
		r->node_bytes_max = r->ckpt_bytes / r->nodes;
		r->drive_bytes_max = r->node_bytes_max / 2;
		r->ckpt.mean_ns = 12.5 * NS_PER_S;
		r->ckpt.p90_ns = 14 * NS_PER_S;
		r->ckpt.mean_low_ns = 11 * NS_PER_S;
		r->ckpt.mean_high_ns = 15 * NS_PER_S;
		r->ckpt.p90_low_ns = 13 * NS_PER_S;
		r->ckpt.p90_high_ns = 17 * NS_PER_S;
		for (uint32_t t = 0; t < SC_MODEL_TAILS; t++)
			r->ckpt.tail[t] = (struct sc_model_tail){
			    .sigma = 0.25, .threshold = 1.2, .exceedances = 10};
		r->ckpt.ndrives_measured = 3;
		r->ckpt.nckpts_max = 10;
		r->ckpt.max_sample_ns = 15 * NS_PER_S;
		r->ckpt.nsamples = 30;
		r->ckpt.ndrives_total = 2ull * r->nodes;
		r->ckpt.beyond_samples = i == 2;
		r->ckpt.trials = 100;
		r->ckpt_tail_exp_ns = 21 * NS_PER_S;
		r->policy.tau_ns = 3600 * NS_PER_S;
		r->policy.write_share = 0.0034;
		r->policy.lost_share = 0.01;
		r->policy.goodput = 0.9866;
		r->sizing.drives_per_node = i == 1 ? 1 : 0;
		r->sizing.overhead = 0.02;
		r->endurance.writes_per_day = 0.25;
		r->endurance.years = 20;
		/* the sizing's answer, 1 drive a node at 64 (none up to 64 at
		 * 4096): other figures than at the measured 2 */
		r->sized_drives_per_node = i == 1 ? 1 : 64;
		r->sized_drive_bytes_max = r->node_bytes_max / r->sized_drives_per_node;
		r->endurance_sized.writes_per_day = i == 1 ? 0.5 : 0.0078;
		r->endurance_sized.years = i == 1 ? 10 : 641;
		r->sizing.ckpt.mean_ns = i == 1 ? 25 * NS_PER_S : 0.4 * NS_PER_S;
		r->node_bytes_median = r->node_bytes_max / 4;
		r->nodes_busiest = i == 1 ? 1 : 32;
		r->restart_ns = 600 * NS_PER_S + 3 * NS_PER_S;
		r->has_restore = true;
	}
}

/* The lines of buf from the one starting with title to the next empty
 * line, copied into out (empty when there is no such title). */
static void section(const char *buf, const char *title, char *out, size_t len)
{
	const char *a = strstr(buf, title), *e;

	out[0] = '\0';
	if (!a)
		return;
	e = strstr(a, "\n\n");
	snprintf(out, len, "%.*s", (int)(e ? (size_t)(e - a) : strlen(a)), a);
}

/* Endurance at the sizing's answer and at the measured count, each in its
 * own table under a header naming its D; the bytes of the busiest and
 * the median node and how many are busiest. */
static void test_text_sizing(const char *buf)
{
	char sec[4096];

	section(buf, "sizing:", sec, sizeof(sec));
	CHECK(strstr(sec, "drives/node for 5%[c]") && strstr(sec, "writes/day there[d]") &&
		  strstr(sec, "rating lasts there[d]"),
	      "sizing table headers: %s", sec);
	CHECK(strstr(sec, "0.5 DWPD") && strstr(sec, "10 y") && !strstr(sec, "0.25 DWPD"),
	      "the sized D's endurance (0.5 DWPD, 10 y), not the measured D's: %s", sec);
	CHECK(strstr(sec, "25.0 s") && strstr(sec, "0.0078 DWPD") && strstr(sec, "641 y"),
	      "ckpt mean and endurance at the answer (at the bound when none): %s", sec);
	section(buf, "checkpoint policy and endurance at 2 drive(s) per node (measured)", sec,
		sizeof(sec));
	CHECK(strstr(sec, "writes/day at 2/node[d]") && strstr(sec, "lasts at 2/node[d]") &&
		  strstr(sec, "0.25 DWPD") && strstr(sec, "20 y") && !strstr(sec, "0.5 DWPD"),
	      "the measured D's endurance, labelled with its D: %s", sec);
	CHECK(strstr(buf, "note: at 4096 nodes no count up to 64 drives per node meets the "
			  "target: the sizing figures are at 64"),
	      "none meets the target: the figures are at the bound");
	section(buf, "checkpoint bytes by node", sec, sizeof(sec));
	/* 5e12 B / 64 = 78125000000 B = 72.8 GiB; a quarter 18.2 GiB */
	CHECK(strstr(sec, "busiest node") && strstr(sec, "median node") &&
		  strstr(sec, "72.8 GiB") && strstr(sec, "18.2 GiB") && strstr(sec, "1 of 64") &&
		  strstr(sec, "32 of 4096"),
	      "node bytes: %s", sec);
	/* has_restore but no restore basis in this projection: no "+ restore" */
	CHECK(strstr(buf, "restart 600 s (default),"),
	      "the default restart on the parameter lines");
}

static void test_text(const struct sc_model_projection *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sc_report_model_table(f, p);
	fclose(f);
	CHECK(strstr(buf, "cluster model from results.pb of run R1"), "source line");
	CHECK(strstr(buf, "ckpt mean[a]") && strstr(buf, "tau[b]") &&
		  strstr(buf, "drives/node for 5%[c]") && strstr(buf, "rating lasts there[d]"),
	      "marked headers");
	test_text_sizing(buf);
	CHECK(!strstr(buf, "exp-tail mean"), "no exponential-tail column: the mean is fitted");
	CHECK(strstr(buf, "12.5 s (11.0 s..15.0 s)") && strstr(buf, "14.0 s (13.0 s..17.0 s)"),
	      "figures with their band, units");
	CHECK(strstr(buf, "band: 2.5th..97.5th percentile and basic bootstrap intervals of 100 replicates, their union") &&
		  strstr(buf, "tails (the figure is their mean): exponential above 1.2 x the trend "
			      "(10 of 30 samples); exponential above 1.2"),
	      "the band and the tail chosen");
	CHECK(strstr(buf, "60.0 m"), "tau in minutes");
	CHECK(strstr(buf, "98.7 %") && strstr(buf, "0.34 %"), "shares in %%");
	CHECK(strstr(buf, "none <= 64"), "no drive count meets the target");
	CHECK(strstr(buf, "0.25 DWPD") && strstr(buf, "20 y"), "endurance with units");
	CHECK(strstr(buf, "note: at 8 nodes the layout does not fit: 64 GPUs < TP x PP = 128"),
	      "layout note");
	CHECK(strstr(buf, "warning: at 4096 nodes, 8192 drives exceed the 30 independent "
			  "samples: the checkpoint time 12.5 s rests on the fitted tail (band -12 "
			  "%..+20 %)"),
	      "beyond-samples warning with the band's width");
	CHECK(!strstr(buf, "warning: at 64 nodes"), "no warning within the samples");
	CHECK(strstr(buf, "[a] checkpoint time\n    inputs: inputs-0\n    assumptions: "
			  "assumptions-0\n"),
	      "basis of [a]");
	CHECK(strstr(buf, "[d] endurance") && !strstr(buf, "[e] ingest"), "basis of present only");
	CHECK(!strstr(buf, "ingestion"), "no ingest table without its figures");
	if (check_failures)
		fputs(buf, stderr);
	free(buf);
}

/* The keys of o, in order, joined by ",". */
static void keys_of(struct json_object *o, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	json_object_object_foreach(o, k, v)
	{
		(void)v;
		used += (size_t)snprintf(out + used, len - used, "%s%s", used ? "," : "", k);
		if (used >= len)
			return;
	}
}

static double num(struct json_object *o, const char *a, const char *b)
{
	struct json_object *v = json_object_object_get(a ? json_object_object_get(o, a) : o, b);

	return v ? json_object_get_double(v) : -1;
}

/* The size of 64 nodes: endurance at the answer (1 drive) as the headline,
 * at the measured 2 as the second figure, named so; node bytes; restart. */
static void test_json_sizing(struct json_object *s)
{
	struct json_object *e = json_object_object_get(s, "endurance");
	struct json_object *m = json_object_object_get(s, "endurance_at_drives_per_node");
	char keys[256];

	keys_of(e, keys, sizeof(keys));
	CHECK(!strcmp(keys, "drives_per_node,drive_bytes_per_checkpoint,drive_writes_per_day,"
			    "years,target_met"),
	      "endurance keys %s", keys);
	CHECK(num(e, NULL, "drives_per_node") == 1 && num(e, NULL, "drive_writes_per_day") == 0.5 &&
		  num(e, NULL, "years") == 10 &&
		  json_object_get_boolean(json_object_object_get(e, "target_met")),
	      "endurance at the answer");
	CHECK(
	    num(m, NULL, "drives_per_node") == 2 && num(m, NULL, "drive_writes_per_day") == 0.25 &&
		num(m, NULL, "years") == 20 &&
		!strcmp(json_object_get_string(json_object_object_get(m, "drives_per_node_basis")),
			"measured"),
	    "endurance at the measured count");
	CHECK(num(s, NULL, "node_bytes_median") == 78125000000.0 / 4 &&
		  num(s, NULL, "nodes_busiest") == 1,
	      "node bytes");
	CHECK(num(s, "policy", "restart_ns") == 603e9 &&
		  json_object_get_boolean(json_object_object_get(
		      json_object_object_get(s, "policy"), "restart_includes_restore")),
	      "restart used");
}

static void test_json(const struct sc_model_projection *p)
{
	size_t len;
	char *text = sc_report_model_json_text(p, &len), keys[512];
	struct json_tokener *tok = json_tokener_new();
	/* the text is len bytes, not NUL-terminated */
	struct json_object *root = text && tok ? json_tokener_parse_ex(tok, text, (int)len) : NULL;
	struct json_object *m = NULL, *sizes, *s, *v;

	json_tokener_free(tok);

	CHECK(root && json_object_object_get_ex(root, "model", &m), "{\"model\": ...}");
	if (!root || !m) {
		free(text);
		return;
	}
	keys_of(m, keys, sizeof(keys));
	CHECK(!strcmp(keys, "source,measured,params,basis,sizes"), "model keys %s", keys);
	keys_of(json_object_object_get(m, "basis"), keys, sizeof(keys));
	CHECK(!strcmp(keys, "checkpoint_time,policy,sizing,endurance"), "basis keys %s", keys);
	keys_of(json_object_object_get(m, "params"), keys, sizeof(keys));
	CHECK(!strstr(keys, "drive_write") && strstr(keys, "nodes,gpus_per_node") &&
		  strstr(keys, "restart_ns,restart_basis"),
	      "params keys %s", keys);
	CHECK(!strcmp(json_object_get_string(json_object_object_get(
			  json_object_object_get(m, "params"), "restart_basis")),
		      "default"),
	      "restart_basis default");
	sizes = json_object_object_get(m, "sizes");
	CHECK(json_object_array_length(sizes) == 3, "three sizes");
	keys_of(json_object_array_get_idx(sizes, 0), keys, sizeof(keys));
	CHECK(!strcmp(keys, "nodes,layout_fits,why_not"), "unfit size keys %s", keys);
	s = json_object_array_get_idx(sizes, 1);
	keys_of(s, keys, sizeof(keys));
	CHECK(!strcmp(keys, "nodes,layout_fits,dp,drives_per_node,checkpoint_bytes,"
			    "node_bytes_max,drive_bytes_max,node_bytes_median,nodes_busiest,"
			    "checkpoint,policy,sizing,endurance,endurance_at_drives_per_node"),
	      "size keys %s", keys);
	test_json_sizing(s);
	CHECK(json_object_get_double(json_object_object_get(json_object_object_get(s, "checkpoint"),
							    "mean_ns")) == 12.5 * NS_PER_S,
	      "mean_ns");
	{
		struct json_object *c = json_object_object_get(s, "checkpoint");

		CHECK(json_object_get_double(json_object_object_get(c, "mean_low_ns")) ==
			      11 * NS_PER_S &&
			  json_object_get_double(json_object_object_get(c, "mean_high_ns")) ==
			      15 * NS_PER_S &&
			  json_object_get_double(json_object_object_get(c, "p90_low_ns")) ==
			      13 * NS_PER_S &&
			  json_object_get_double(json_object_object_get(c, "p90_high_ns")) ==
			      17 * NS_PER_S &&
			  json_object_array_length(json_object_object_get(c, "tails")) ==
			      SC_MODEL_TAILS &&
			  !strcmp(
			      json_object_get_string(json_object_object_get(
				  json_object_array_get_idx(json_object_object_get(c, "tails"), 1),
				  "tail")),
			      "exponential"),
		      "the band and the tail in the JSON");
	}
	s = json_object_array_get_idx(sizes, 2);
	CHECK(
	    json_object_object_get_ex(json_object_object_get(s, "sizing"), "drives_per_node", &v) &&
		v == NULL,
	    "sizing.drives_per_node null when none");
	CHECK(json_object_get_boolean(json_object_object_get(
		  json_object_object_get(s, "checkpoint"), "beyond_samples")),
	      "beyond_samples");
	json_object_put(root);
	free(text);
}

/* Stated figures: one constant drive, no beyond-samples warning or tail
 * column, a note instead. */
static void test_stated(struct sc_model_projection *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	p->measured = false;
	snprintf(p->source, sizeof(p->source), "stated per-drive figures");
	f = open_memstream(&buf, &len);
	sc_report_model_table(f, p);
	fclose(f);
	CHECK(!strstr(buf, "warning:") && !strstr(buf, "exp-tail"), "no tail talk when stated");
	CHECK(strstr(buf, "note: the stated drive is one constant figure"), "stated note");
	free(buf);
}

int main(void)
{
	static struct sc_model_projection p;

	make(&p);
	test_text(&p);
	test_json(&p);
	test_stated(&p);
	return check_exit("test_report_model");
}
