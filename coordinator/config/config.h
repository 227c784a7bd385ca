/* config.h -- YAML config file to a validated plan, with --set overrides. */
#ifndef SC_CONFIG_H
#define SC_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"

struct sc_config;

/* Reads path, applies the KEY=VALUE overrides in sets (in order), expands
 * ${VAR} and ${VAR:-default}, checks every key, type, unit and
 * combination, probes each target that exists here (kind, size, alignment
 * for direct I/O) and builds the plan (sweeps expanded into one phase per
 * cell).  Writes nothing.
 *
 * 0, or -EINVAL with one message in err of the form
 *   "cfg.yaml:14:7: phases.2.bs: \"12KX\" is not a size (try 4KiB, 1MiB)"
 * (an override's error names "--set KEY=VALUE" instead of a location), or
 * -errno when the file cannot be read.
 *
 * In --set, runtime and io_size are alternatives: setting one removes the
 * other (io_size also removes ramp) from the same mapping.  Targets with
 * `hosts:` are not probed here; their capacity may be 0 (unknown), and each
 * rank checks them on its own host (validate.h). */
int sc_config_load(struct sc_config **out, const char *path,
		   const char *const *sets, uint32_t nsets,
		   char *err, size_t errlen);

/* The plan it built (run_id unset: the caller sets it).  The config keeps
 * ownership unless _take_plan moves it out (the config's copy is then
 * emptied). */
const struct sc_plan *sc_config_plan(const struct sc_config *cfg);
void sc_config_take_plan(struct sc_config *cfg, struct sc_plan *out);

/* "file:line:col" of the value at a dotted key path ("targets.0.capacity",
 * "phases.1.bs"), or of its nearest ancestor present in the file; for a
 * value set by --set, "--set KEY=VALUE".  Returns buf. */
const char *sc_config_where(const struct sc_config *cfg, const char *keypath,
			    char *buf, size_t len);

void sc_config_destroy(struct sc_config *cfg);

/* `ssdcluster keys [WORKLOAD] [--markdown]` (argv: what follows "keys"):
 * the phase and target keys, their workloads, types, ranges, defaults and
 * help, from the key table.  Returns the exit status (2: bad arguments). */
int sc_config_keys_command(int argc, char **argv);

#endif
