/* source.h — schema source files held in memory, and locations inside them. */
#ifndef NSC_SOURCE_H
#define NSC_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "netschemac/netschemac.h"

/* A byte range in a source file. file is the source's id (0: no location). */
typedef struct nsc_loc {
    uint32_t file;
    uint32_t start, end;
} nsc_loc;

typedef struct nsc_source {
    uint32_t  id;          /* 1-based */
    char     *path;        /* as shown in diagnostics */
    char     *real;        /* canonical path for "read once" (NULL for buffers) */
    char     *dir;         /* directory that relative imports start from */
    char     *text;        /* len bytes + 2 NULs (flex needs them) */
    size_t    len;
    uint32_t *line_starts; /* byte offset of each line */
    size_t    line_count;
} nsc_source;

typedef struct nsc_sources {
    nsc_source **items;
    size_t       count, cap;
} nsc_sources;

/* Takes ownership of text (allocated with room for len + 2 bytes). */
nsc_source *nsc_sources_add(nsc_sources *s, const char *path, const char *real, char *text, size_t len);
void        nsc_sources_free(nsc_sources *s);
nsc_source *nsc_sources_get(const nsc_sources *s, uint32_t id);

/* 1-based line and column (in code points) of a byte offset. */
void nsc_source_position(const nsc_source *src, uint32_t offset, uint32_t *line, uint32_t *column);

/* Bytes of line `line` (1-based) without its newline. */
const char *nsc_source_line(const nsc_source *src, uint32_t line, size_t *len);

/* Resolves a location to a reportable span. */
nsc_span nsc_sources_span(const nsc_sources *s, nsc_loc loc);

/* The range covering a and b (same file). */
nsc_loc nsc_loc_join(nsc_loc a, nsc_loc b);

#endif
