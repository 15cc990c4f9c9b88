/*
 * aesir_cli.c -- the `aesir` tool's checks of the environment variables
 * the library reads (see aesir_cli.h), with the library's public API
 * only: which engines, CPU features and model classes exist.
 */
#include "aesir_cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "aesir.h"
#include "args.h"

/* line -- appends one formatted line at out + *o (as much as fits). */
static void line(char *out, size_t cap, size_t *o, const char *fmt, ...)
    ARGS_PRINTF(4, 5);

static void line(char *out, size_t cap, size_t *o, const char *fmt, ...)
{
    va_list ap;

    if (*o + 1 >= cap)
        return;
    va_start(ap, fmt);
    *o += (size_t)vsnprintf(out + *o, cap - *o, fmt, ap);
    va_end(ap);
    if (*o + 1 >= cap) { /* cut: keep it one line */
        *o = cap - 1;
        out[*o - 1] = '\n';
        return;
    }
    out[(*o)++] = '\n';
    out[*o] = '\0';
}

/* is_feature -- name (n bytes) is a CPU feature name the library knows. */
static int is_feature(const char *name, size_t n)
{
    const char *f;

    for (size_t i = 0; (f = aesir_cpu_feature(i, NULL)) != NULL; i++)
        if (strlen(f) == n && strncmp(f, name, n) == 0)
            return 1;
    return 0;
}

/* disable_warning -- the AESIR_CPU_DISABLE line, when an item of v names
 * nothing: cpu.c splits v at commas, takes "all" and the feature names
 * exactly (case and spaces count) and skips every other item. Empty
 * items and "none" are skipped too, which is what they mean. */
static int disable_warning(const char *v, char *out, size_t cap, size_t *o)
{
    char bad[256] = "", q[96], known[512];
    size_t nb = 0, nbad = 0, nk = 0;
    const char *f;

    for (const char *s = v; *s != '\0';) {
        size_t len = strcspn(s, ",");
        char item[128];
        if (len > 0 && !(len == 3 && strncmp(s, "all", 3) == 0) &&
            !(len == 4 && strncmp(s, "none", 4) == 0) && !is_feature(s, len)) {
            snprintf(item, sizeof(item), "%.*s", (int)(len < 100 ? len : 100),
                     s);
            if (nb < sizeof(bad))
                nb += (size_t)snprintf(bad + nb, sizeof(bad) - nb, "%s'%s'",
                                       nbad > 0 ? ", " : "",
                                       args_quote(q, sizeof(q), item));
            nbad++;
        }
        s += len + (s[len] == ',');
    }
    if (nbad == 0)
        return 0;
    for (size_t i = 0;
         (f = aesir_cpu_feature(i, NULL)) != NULL && nk < sizeof(known); i++)
        nk += (size_t)snprintf(known + nk, sizeof(known) - nk, "%s ", f);
    line(out, cap, o,
         "aesir: warning: AESIR_CPU_DISABLE=%s: %s %s no CPU feature; the "
         "library ignores %s (known: %sall)",
         args_quote(q, sizeof(q), v), bad, nbad > 1 ? "name" : "names",
         nbad > 1 ? "them" : "it", known);
    return 1;
}

int aesir_cli_env_warnings(const char *engine, const char *disable,
                           const char *model, char *out, size_t cap)
{
    size_t o = 0;
    int lines = 0;
    char q[96];

    if (cap > 0)
        out[0] = '\0';
    /* dispatch.c: a set, non-empty AESIR_ENGINE is taken when it names an
     * engine this CPU can run; else the default rule chooses. */
    if (engine != NULL && *engine != '\0') {
        int i = aesir_engine_find(engine);
        if (i < 0 ||
            !(aesir_engine_flags((size_t)i) & AESIR_ENGINE_AVAILABLE)) {
            line(out, cap, &o,
                 "aesir: warning: AESIR_ENGINE=%s %s; the library ignores "
                 "it and the default rule applies (default: %s)",
                 args_quote(q, sizeof(q), engine),
                 i < 0 ? "names no engine"
                       : "names an engine that is not available here (not "
                         "built, or this CPU cannot run it)",
                 aesir_engine_default());
            lines++;
        }
    }
    if (disable != NULL)
        lines += disable_warning(disable, out, cap, &o);
    /* cpu.c: a value other than a model class name is ignored. */
    if (model != NULL && *model != '\0' &&
        strcmp(model, aesir_cpu_model(NULL)) != 0) {
        line(out, cap, &o,
             "aesir: warning: AESIR_CPU_MODEL=%s names no CPU model class "
             "(see aesir_cpu_model in aesir.h); the library ignores it "
             "(model: %s)",
             args_quote(q, sizeof(q), model), aesir_cpu_model(NULL));
        lines++;
    }
    return lines;
}
