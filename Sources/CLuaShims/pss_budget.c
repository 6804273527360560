/* What host code reads of a state's budget. */
#include "pss_internal.h"

size_t pss_memory_limit(pss_context *ctx) { return ctx->limit; }
