/* params.h -- the keys of the cluster model's parameters (params.c), for
 * callers that must know a key before they set it: the command line, to
 * refuse an option given twice or one it does not know.
 *
 * sc_model_params_set (project.h) takes a key in either spelling: the
 * config's ("node_mtbf") or the command line's ("--node-mtbf"); its
 * messages name the key as it was given.
 */
#ifndef SC_MODEL_PARAMS_H
#define SC_MODEL_PARAMS_H

/* Keys sc_model_params_set knows. */
#define SC_MODEL_PARAMS_NKEYS 21u

/* The index (0 .. SC_MODEL_PARAMS_NKEYS - 1) of key, in either spelling:
 * two spellings of one key give the same index.  -ENOENT for a key that is
 * not a parameter. */
int sc_model_params_key(const char *key);

/* The config spelling of key index i ("node_mtbf"), or NULL past the end. */
const char *sc_model_params_key_name(unsigned i);

#endif
