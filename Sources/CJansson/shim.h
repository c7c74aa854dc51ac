#include <jansson.h>

// json_typeof is a macro reading a struct field, which Swift cannot import;
// this gives Swift the same answer as a plain function.
static inline json_type cjansson_type(const json_t *json) { return json_typeof(json); }
