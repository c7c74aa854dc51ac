// xxHash from Debian's libxxhash-dev header, every function static inline
// (XXH_INLINE_ALL), so memoapp loads no libxxhash.so at start. The header then
// prefixes every name with XXH_INLINE_ (XXH_INLINE_XXH3_createState, …).
#define XXH_INLINE_ALL
#include <xxhash.h>
