/* engine.c -- picks the I/O engine for a kind named in the plan. */
#include "engine.h"

#include <stddef.h>

const struct sc_engine_ops *sc_engine_get(enum sc_engine_kind kind)
{
	switch (kind) {
	case SC_ENGINE_URING:
		return &sc_engine_uring;
	case SC_ENGINE_PSYNC:
		return &sc_engine_psync;
	case SC_ENGINE_NULL:
		return &sc_engine_null;
	case SC_ENGINE_EMULATED:
		return &sc_engine_emulated;
	case SC_ENGINE_COUNT:
		break;
	}
	return NULL;
}

bool sc_engine_uses_files(enum sc_engine_kind kind)
{
	const struct sc_engine_ops *ops = sc_engine_get(kind);

	return ops && !(ops->flags & SC_ENGINE_F_NO_FILES);
}
