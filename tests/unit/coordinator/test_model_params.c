/* test_model_params.c -- the cluster model's parameters (model/params.c):
 * the defaults, every key in both spellings, every refusal and its
 * message. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "model/params.h"
#include "model/project.h"

#define NS_PER_S  UINT64_C(1000000000)
#define NS_PER_H  (3600 * NS_PER_S)
#define ERR_ROOM  1024

/* Sets key=value on p; expects success. */
static void set_ok(struct sc_model_params *p, const char *key, const char *value)
{
	char err[ERR_ROOM] = "";
	int rc = sc_model_params_set(p, key, value, err, sizeof(err));

	CHECK(rc == 0, "%s=%s: rc %d (%s)", key, value, rc, err);
}

/* Sets key=value on a copy of the defaults; expects -EINVAL with a message
 * holding want, and the parameters untouched. */
static void set_bad(const char *key, const char *value, const char *want)
{
	struct sc_model_params p, before;
	char err[ERR_ROOM] = "";
	int rc;

	sc_model_params_default(&p);
	before = p;
	rc = sc_model_params_set(&p, key, value, err, sizeof(err));
	CHECK(rc == -EINVAL, "%s=%s: rc %d, want -EINVAL", key, value, rc);
	CHECK(strstr(err, want) != NULL, "%s=%s: message \"%s\" lacks \"%s\"", key,
	      value ? value : "(null)", err, want);
	CHECK(memcmp(&p, &before, sizeof(p)) == 0, "%s=%s: a refused value changed the parameters",
	      key, value);
}

static void test_defaults(void)
{
	struct sc_model_params p;

	sc_model_params_default(&p);
	CHECK(p.nsizes == 4 && p.nodes[0] == 8 && p.nodes[1] == 64 && p.nodes[2] == 512 &&
		      p.nodes[3] == 4096,
	      "default nodes");
	CHECK(p.gpus_per_node == 8, "gpus_per_node %u", p.gpus_per_node);
	CHECK(p.drives_per_node == 0, "drives_per_node as measured");
	CHECK(p.node_mtbf_ns == 50000 * NS_PER_H, "node_mtbf");
	/* 10 min before the projected restore, which the projection adds */
	CHECK(p.restart_ns == 600 * NS_PER_S && !p.restart_given, "restart %llu ns",
	      (unsigned long long)p.restart_ns);
	CHECK(p.overhead_target == 0.05, "overhead_target %g", p.overhead_target);
	CHECK(p.dwpd == 1 && p.warranty_years == 5, "dwpd %g warranty %g", p.dwpd,
	      p.warranty_years);
	CHECK(p.drive_capacity_bytes == UINT64_C(30720000000000), "capacity");
	CHECK(p.max_drives_per_node == 64, "max drives");
	CHECK(p.model[0] == '\0' && p.tp == 0 && p.pp == 0 && p.zero_stage == -1,
	      "model and layout as the run's");
	CHECK(p.scale == 1, "scale");
	CHECK(p.drive_write_bytes_per_s == 0 && p.drive_read_bytes_per_s == 0, "no stated drive");
	CHECK(p.seed == 1 && p.trials == 0 && !p.json, "seed, trials, json");
}

/* Every key, with the spelling of a config and of the command line. */
static void test_every_key(void)
{
	struct sc_model_params p;

	sc_model_params_default(&p);
	set_ok(&p, "nodes", "1,2,1000");
	CHECK(p.nsizes == 3 && p.nodes[0] == 1 && p.nodes[2] == 1000, "nodes");
	set_ok(&p, "--nodes", "16");
	CHECK(p.nsizes == 1 && p.nodes[0] == 16, "--nodes replaces the list");
	set_ok(&p, "gpus_per_node", "4");
	set_ok(&p, "--drives-per-node", "3");
	CHECK(p.gpus_per_node == 4 && p.drives_per_node == 3, "gpus, drives");
	set_ok(&p, "--node-mtbf", "20000h");
	CHECK(p.node_mtbf_ns == 20000 * NS_PER_H, "node_mtbf");
	set_ok(&p, "restart", "5m");
	CHECK(p.restart_ns == 300 * NS_PER_S && p.restart_given, "restart");
	set_ok(&p, "restart", "0");
	CHECK(p.restart_ns == 0 && p.restart_given, "restart 0");
	set_ok(&p, "--overhead-target", "5%");
	CHECK(fabs(p.overhead_target - 0.05) < 1e-15, "5%% -> %g", p.overhead_target);
	set_ok(&p, "overhead_target", "0.1");
	CHECK(p.overhead_target == 0.1, "0.1 -> %g", p.overhead_target);
	set_ok(&p, "dwpd", "0.3");
	CHECK(p.dwpd == 0.3, "dwpd");
	set_ok(&p, "warranty", "3y");
	CHECK(p.warranty_years == 3, "3y -> %g", p.warranty_years);
	set_ok(&p, "--warranty", "8760h");
	CHECK(fabs(p.warranty_years - 1) < 1e-12, "8760h -> %g years", p.warranty_years);
	set_ok(&p, "drive_capacity", "7.68TB");
	CHECK(p.drive_capacity_bytes == UINT64_C(7680000000000), "capacity");
	set_ok(&p, "--max-drives-per-node", "16");
	CHECK(p.max_drives_per_node == 16, "max drives");
	set_ok(&p, "model", "llama3-70b");
	CHECK(!strcmp(p.model, "llama3-70b"), "model %s", p.model);
	set_ok(&p, "--model", "llama3-405b"); /* MLPerf's spelling: the catalogue's name kept */
	CHECK(!strcmp(p.model, "llama3.1-405b"), "alias -> %s", p.model);
	set_ok(&p, "tp", "8");
	set_ok(&p, "--pp", "16");
	set_ok(&p, "zero", "0");
	CHECK(p.tp == 8 && p.pp == 16 && p.zero_stage == 0, "layout");
	set_ok(&p, "scale", "0.001");
	CHECK(p.scale == 0.001, "scale");
	set_ok(&p, "--drive-write", "7GB/s");
	CHECK(p.drive_write_bytes_per_s == 7e9, "write %g", p.drive_write_bytes_per_s);
	set_ok(&p, "drive_read", "1.5GiB/s");
	CHECK(p.drive_read_bytes_per_s == 1.5 * (1 << 30), "read %g", p.drive_read_bytes_per_s);
	set_ok(&p, "seed", "18446744073709551615");
	CHECK(p.seed == UINT64_MAX, "seed");
	set_ok(&p, "--trials", "500");
	CHECK(p.trials == 500, "trials");
}

/* Every refusal names the key as given, the value and what is expected. */
static void test_refusals(void)
{
	set_bad("--nodes", "0",
		"--nodes: \"0\" is not a node count (give counts >= 1, increasing, e.g. "
		"8,64,512,4096)");
	set_bad("nodes", "8,,64", "nodes: \"\" is not a node count");
	set_bad("nodes", "8,x", "\"x\" is not a node count");
	set_bad("nodes", "-8", "is not a node count");
	set_bad("nodes", "", "nodes: needs a value");
	set_bad("--nodes", "64,8", "--nodes: 8 after 64: give the node counts increasing");
	set_bad("nodes", "8,8", "8 after 8");
	set_bad("nodes", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,"
			 "28,29,30,31,32,33",
		"more than 32 cluster sizes");
	set_bad("gpus_per_node", "0", "gpus_per_node: \"0\" is not a count of accelerators");
	set_bad("--drives-per-node", "0", "--drives-per-node: \"0\" is not a count of drives");
	set_bad("drives_per_node", "2.5", "is not a count of drives");
	set_bad("max_drives_per_node", "0", "is not a bound on drives per node");
	set_bad("--node-mtbf", "0", "--node-mtbf: \"0\" is not a positive duration");
	set_bad("node_mtbf", "forever", "is not a positive duration (e.g. 50000h");
	set_bad("restart", "5x", "restart: \"5x\" is not a duration");
	set_bad("--overhead-target", "5", "--overhead-target: \"5\" is not a share between 0 and "
					  "1 (give e.g. 5% or 0.05)");
	set_bad("overhead_target", "0", "is not a share between 0 and 1");
	set_bad("overhead_target", "100%", "is not a share between 0 and 1");
	set_bad("overhead_target", "%", "is not a share");
	set_bad("overhead_target", "nan", "is not a share");
	set_bad("dwpd", "0", "dwpd: \"0\" is not a rating in drive writes per day");
	set_bad("dwpd", "-1", "is not a rating");
	set_bad("warranty", "5", "warranty: \"5\" is not a warranty term (give years, e.g. 5y");
	set_bad("warranty", "0y", "is not a warranty term");
	set_bad("warranty", "0h", "is not a warranty term");
	set_bad("drive_capacity", "0", "drive_capacity: \"0\" is not a drive capacity");
	set_bad("drive_capacity", "30.72XB", "is not a drive capacity (give a size, e.g. 30.72TB");
	set_bad("--model", "gpt-5",
		"--model: \"gpt-5\" is not a model of the catalogue (give one of: llama3-8b "
		"llama3-70b llama3.1-405b llama3-1t)");
	set_bad("tp", "0", "tp: \"0\" is not a tensor-parallel degree");
	set_bad("pp", "x", "pp: \"x\" is not a pipeline-parallel degree");
	set_bad("zero", "4", "zero: \"4\" is not a ZeRO stage (give a whole number from 0 to 3)");
	set_bad("scale", "0", "scale: \"0\" is not a scale");
	set_bad("scale", "1.5", "at most 1");
	set_bad("--drive-write", "7GB", "--drive-write: \"7GB\" is not a rate (give a size per "
					"second, e.g. 7GB/s");
	set_bad("drive_read", "0GB/s", "is not a rate");
	set_bad("drive_read", "/s", "is not a rate");
	set_bad("seed", "-1", "seed: \"-1\" is not a seed");
	set_bad("seed", "18446744073709551616", "is not a seed");
	set_bad("trials", "0", "trials: \"0\" is not a count of trials");
	set_bad("nosuch", "1", "nosuch: not a model parameter (the keys are nodes, gpus_per_node");
	set_bad("--node_mtbf", "1h", "not a model parameter");
	set_bad("node-mtbf", "1h", "not a model parameter");
}

/* Two spellings of one key share its index; the names round-trip. */
static void test_keys(void)
{
	CHECK(sc_model_params_key("node_mtbf") == sc_model_params_key("--node-mtbf") &&
		      sc_model_params_key("node_mtbf") >= 0,
	      "one index for both spellings");
	CHECK(sc_model_params_key("--json") == -ENOENT, "json is not a parameter");
	CHECK(sc_model_params_key(NULL) == -ENOENT, "NULL key");
	for (unsigned i = 0; i < SC_MODEL_PARAMS_NKEYS; i++) {
		const char *name = sc_model_params_key_name(i);

		CHECK(name && sc_model_params_key(name) == (int)i, "key %u round-trips", i);
	}
	CHECK(sc_model_params_key_name(SC_MODEL_PARAMS_NKEYS) == NULL, "past the end");
}

int main(void)
{
	test_defaults();
	test_every_key();
	test_refusals();
	test_keys();
	return check_exit("test_model_params");
}
