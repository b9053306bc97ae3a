/* source.c — source files, line tables and offset → line:column conversion. */
#include "source.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "utf8.h"

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = nsc_xrealloc(NULL, n);
    memcpy(p, s, n);
    return p;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return xstrdup(".");
    size_t n = (size_t)(slash - path);
    if (n == 0) n = 1; /* "/x.netschema" → "/" */
    char *d = nsc_xrealloc(NULL, n + 1);
    memcpy(d, path, n);
    d[n] = '\0';
    return d;
}

static void build_lines(nsc_source *src)
{
    size_t cap = 64, count = 0;
    uint32_t *lines = nsc_xrealloc(NULL, cap * sizeof *lines);
    lines[count++] = 0;
    for (size_t i = 0; i < src->len; i++) {
        if (src->text[i] != '\n') continue;
        if (count == cap) lines = nsc_xrealloc(lines, (cap *= 2) * sizeof *lines);
        lines[count++] = (uint32_t)(i + 1);
    }
    src->line_starts = lines;
    src->line_count = count;
}

nsc_source *nsc_sources_add(nsc_sources *s, const char *path, const char *real, char *text, size_t len)
{
    if (s->count == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->items = nsc_xrealloc(s->items, s->cap * sizeof *s->items);
    }
    nsc_source *src = nsc_xrealloc(NULL, sizeof *src);
    memset(src, 0, sizeof *src);
    src->id = (uint32_t)s->count + 1;
    src->path = xstrdup(path);
    src->real = real ? xstrdup(real) : NULL;
    src->dir = dir_of(real ? real : path);
    src->text = text;
    src->len = len;
    build_lines(src);
    s->items[s->count++] = src;
    return src;
}

void nsc_sources_free(nsc_sources *s)
{
    for (size_t i = 0; i < s->count; i++) {
        nsc_source *src = s->items[i];
        free(src->path);
        free(src->real);
        free(src->dir);
        free(src->text);
        free(src->line_starts);
        free(src);
    }
    free(s->items);
    s->items = NULL;
    s->count = s->cap = 0;
}

nsc_source *nsc_sources_get(const nsc_sources *s, uint32_t id)
{
    return id >= 1 && id <= s->count ? s->items[id - 1] : NULL;
}

void nsc_source_position(const nsc_source *src, uint32_t offset, uint32_t *line, uint32_t *column)
{
    if (offset > src->len) offset = (uint32_t)src->len;
    size_t lo = 0, hi = src->line_count; /* find the last line start <= offset */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (src->line_starts[mid] <= offset) lo = mid;
        else hi = mid;
    }
    uint32_t col = 1;
    for (size_t i = src->line_starts[lo]; i < offset;) {
        uint32_t cp;
        size_t n = ns_utf8_decode(src->text + i, offset - i, &cp);
        i += n ? n : 1;
        col++;
    }
    *line = (uint32_t)lo + 1;
    *column = col;
}

const char *nsc_source_line(const nsc_source *src, uint32_t line, size_t *len)
{
    if (line < 1 || line > src->line_count) {
        *len = 0;
        return "";
    }
    size_t start = src->line_starts[line - 1];
    size_t end = line < src->line_count ? src->line_starts[line] - 1 : src->len;
    if (end > start && src->text[end - 1] == '\r') end--;
    *len = end - start;
    return src->text + start;
}

nsc_span nsc_sources_span(const nsc_sources *s, nsc_loc loc)
{
    nsc_span sp;
    memset(&sp, 0, sizeof sp);
    const nsc_source *src = nsc_sources_get(s, loc.file);
    if (!src) return sp;
    sp.file = src->path;
    sp.offset = loc.start;
    sp.end_offset = loc.end < loc.start ? loc.start : loc.end;
    nsc_source_position(src, loc.start, &sp.line, &sp.column);
    if (sp.end_offset > sp.offset) {
        /* The last code point inside the range. */
        uint32_t last = sp.end_offset - 1;
        while (last > sp.offset && ((unsigned char)src->text[last] & 0xc0) == 0x80) last--;
        nsc_source_position(src, last, &sp.end_line, &sp.end_column);
    } else {
        sp.end_line = sp.line;
        sp.end_column = sp.column;
    }
    return sp;
}

nsc_loc nsc_loc_join(nsc_loc a, nsc_loc b)
{
    if (a.file == 0) return b;
    if (b.file == 0 || b.file != a.file) return a;
    nsc_loc r = a;
    if (b.start < r.start) r.start = b.start;
    if (b.end > r.end) r.end = b.end;
    return r;
}
