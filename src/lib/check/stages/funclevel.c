/* The function-level stage (funclevel.h): a fix's functions from the scan of its files, and
 * the rule that decides them against an image's symbols. */
#include "check/stages/funclevel.h"

#include <stdio.h>
#include <string.h>

#include "check/records/recset.h"
#include "check/verdict/check.h"
#include "core/xalloc.h"
#include "csrc/funcscan.h"

static struct fl_func *find(struct fl_fix *fx, const char *path, const char *name)
{
	for (size_t i = 0; i < fx->n; i++)
		if (strcmp(fx->fn[i].file, path) == 0 && strcmp(fx->fn[i].name, name) == 0)
			return &fx->fn[i];
	return NULL;
}

static void add_name(struct fl_fix *fx, const char *path, const char *name, size_t len,
		     unsigned flags, bool added)
{
	char *nm = xstrndup(name, len);
	struct fl_func *have = find(fx, path, nm);
	if (have) {
		free(nm);
		have->flags |= flags;
		have->added = have->added && added;
		return;
	}
	XGROW(fx->fn, fx->n + 1, fx->alloc);
	fx->fn[fx->n++] = (struct fl_func){xstrdup(path), nm, flags, added};
}

static void add_fn(struct fl_fix *fx, const char *path, const struct funcscan_fn *f, bool added)
{
	add_name(fx, path, f->name, strlen(f->name), f->flags, added);
}

static bool defined_in(const struct funcscan *fs, const char *name)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->fn[i].name, name) == 0)
			return true;
	return false;
}

/* The functions that ranges r of a file scanned into fs change; on the side after the fix
 * (new_side), a function the scan of the file before (before; NULL: a new file) does not
 * define is one the fix adds. */
static void add_side(struct fl_fix *fx, const char *path, const struct funcscan *fs,
		     const struct fl_range *r, size_t nr, bool new_side, const struct funcscan *before)
{
	for (size_t i = 0; i < nr; i++) {
		size_t idx[64];
		bool out = false;
		size_t n = funcscan_range(fs, r[i].first, r[i].last, idx, 64, &out);
		if (out || n > 64)
			fx->outside = true; /* also: more functions than we keep, never "all absent" */
		for (size_t j = 0; j < n && j < 64; j++) {
			const struct funcscan_fn *f = &fs->fn[idx[j]];
			add_fn(fx, path, f, new_side && (!before || !defined_in(before, f->name)));
		}
	}
}

/* A C file (.c, .h): any other (assembly, Rust, Kconfig) is not read as functions, and its
 * symbols would not match names read as C. */
static bool is_c_path(const char *path)
{
	size_t n = strlen(path);
	return n > 2 && path[n - 2] == '.' && (path[n - 1] == 'c' || path[n - 1] == 'h');
}

void fl_fix_add_file(struct fl_fix *fx, const char *path, const char *old, size_t oldlen,
		     const struct fl_range *del, size_t ndel, const char *new_, size_t newlen,
		     const struct fl_range *add, size_t nadd)
{
	if (*path && !is_c_path(path)) {
		if (ndel || nadd)
			fx->outside = true;
		return;
	}
	struct funcscan o = {0}, n = {0};
	if (old)
		funcscan_scan(&o, old, oldlen);
	if (new_)
		funcscan_scan(&n, new_, newlen);
	if ((ndel && !old) || (nadd && !new_))
		fx->outside = true; /* lines we cannot place */
	if (old)
		add_side(fx, path, &o, del, ndel, false, NULL);
	if (new_)
		add_side(fx, path, &n, add, nadd, true, old ? &o : NULL);
	funcscan_free(&o);
	funcscan_free(&n);
}

void fl_fix_add_scanned(struct fl_fix *fx, const char *path, const struct funcscan_fn *f)
{
	if (!is_c_path(path))
		fx->outside = true;
	else
		add_fn(fx, path, f, false);
}

void fl_fix_release(struct fl_fix *fx)
{
	for (size_t i = 0; i < fx->n; i++) {
		free(fx->fn[i].file);
		free(fx->fn[i].name);
	}
	free(fx->fn);
	memset(fx, 0, sizeof *fx);
}

static const struct {
	char letter;
	unsigned flag;
} letters[] = {
	{'s', FUNCSCAN_STATIC}, {'i', FUNCSCAN_INLINE}, {'m', FUNCSCAN_MACRO},
	{'y', FUNCSCAN_SYSCALL}, {'c', FUNCSCAN_COMPAT},
};

void fl_hunk_funcs(struct strbuf *out, const char *old, size_t oldlen, const struct fl_range *del,
		   size_t ndel, const char *new_, size_t newlen, const struct fl_range *add,
		   size_t nadd)
{
	struct fl_fix fx = {0};
	fl_fix_add_file(&fx, "", old, oldlen, del, ndel, new_, newlen, add, nadd);
	for (size_t i = 0; i < fx.n; i++) {
		sb_addf(out, "%s%s:", i ? "," : "", fx.fn[i].name);
		for (size_t l = 0; l < sizeof letters / sizeof letters[0]; l++)
			if (fx.fn[i].flags & letters[l].flag)
				sb_addc(out, letters[l].letter);
		if (fx.fn[i].added)
			sb_addc(out, 'a');
	}
	if (fx.outside)
		sb_adds(out, fx.n ? ",!" : "!");
	fl_fix_release(&fx);
}

void fl_fix_add_text(struct fl_fix *fx, const char *path, const char *funcs)
{
	if (!is_c_path(path)) {
		if (*funcs)
			fx->outside = true;
		return;
	}
	for (const char *p = funcs; *p;) {
		size_t len = strcspn(p, ",");
		size_t nlen = strcspn(p, ",:");
		if (len == 1 && *p == '!') {
			fx->outside = true;
		} else if (nlen > 0) {
			unsigned flags = nlen == len ? FL_FLAGS_UNKNOWN : 0;
			bool added = false;
			for (size_t j = nlen + 1; j < len; j++) {
				added |= p[j] == 'a';
				for (size_t l = 0; l < sizeof letters / sizeof letters[0]; l++)
					if (p[j] == letters[l].letter)
						flags |= letters[l].flag;
			}
			add_name(fx, path, p, nlen, flags, added);
		}
		p += len + (p[len] == ',');
	}
}

const char *fl_verdict_name(enum fl_verdict v)
{
	return v == FL_ABSENT ? "absent" : v == FL_PRESENT ? "present" : "undecided";
}

/* The image has a symbol for f (any of its linker names; a macro-made one by its name). */
static bool in_image(const struct fl_func *f, const struct ksyms *k)
{
	struct funcscan_fn sf = {.name = f->name,
				 .flags = f->flags & ~(unsigned)(FUNCSCAN_MACRO | FL_FLAGS_UNKNOWN)};
	char buf[2048];
	const char *sym[8];
	size_t n = funcscan_symbols(&sf, buf, sizeof buf, sym, 8);
	for (size_t i = 0; i < n; i++)
		if (ksyms_has(k, sym[i]))
			return true;
	return false;
}

static void name_fn(struct strbuf *why, const struct fl_func *f)
{
	sb_addf(why, "%s%s (%s)", f->flags & (FUNCSCAN_SYSCALL | FUNCSCAN_COMPAT) ? "syscall " : "",
		f->name, f->file);
}

/* Rules 4-6 for the functions that do not decide by presence; true when absence stands. */
static bool absence_stands(const struct fl_fix *fx, const struct ksyms *k, fl_builtin_fn builtin,
			   void *ctx, struct strbuf *why)
{
	size_t before = 0;
	for (size_t i = 0; i < fx->n; i++) {
		const struct fl_func *f = &fx->fn[i];
		if (f->added)
			continue;
		before++;
		if ((f->flags & FL_FLAGS_UNKNOWN) ||
		    !funcscan_has_symbol(&(struct funcscan_fn){.flags = f->flags})) {
			sb_adds(why, "changed function ");
			name_fn(why, f);
			sb_addf(why, " is %s: it may be in the kernel without a symbol",
				f->flags & FL_FLAGS_UNKNOWN ? "not known to be non-static"
				: f->flags & FUNCSCAN_MACRO ? "made by a macro"
				: f->flags & FUNCSCAN_INLINE ? "inline" : "static");
			return false;
		}
		if (!(k->cover & KSYMS_MODULES) && !(builtin && builtin(ctx, f->file))) {
			sb_addf(why, "%s may be built as a module and %s does not cover the modules",
				f->file, k->desc);
			return false;
		}
	}
	if (before == 0) {
		sb_adds(why, "the fix only adds functions: nothing names the code it changes");
		return false;
	}
	return true;
}

enum fl_verdict fl_decide(const struct fl_fix *fx, const struct ksyms *k, fl_builtin_fn builtin,
			  void *ctx, struct strbuf *why)
{
	if (fx->n == 0) {
		sb_adds(why, fx->from_tree ? "no changed function could be read in the source tree "
				"(a file missing or not C, a hunk not found whose header names no "
				"function there, or changes outside every function)"
				: "the fix changes no function (macros, declarations or data only)");
		return FL_UNDECIDED;
	}
	for (size_t i = 0; i < fx->n; i++)
		if (in_image(&fx->fn[i], k)) {
			sb_adds(why, "changed function ");
			name_fn(why, &fx->fn[i]);
			sb_addf(why, " is in %s", k->desc);
			return FL_PRESENT;
		}
	if (k->lto) {
		sb_addf(why, "%s is of a kernel built with link-time optimisation: a function may be inlined into other files and have no symbol",
			k->desc);
		return FL_UNDECIDED;
	}
	if (fx->outside) {
		sb_adds(why, "the fix also changes lines outside every function");
		return FL_UNDECIDED;
	}
	if (!absence_stands(fx, k, builtin, ctx, why))
		return FL_UNDECIDED;
	sb_adds(why, "not affected: the changed code is not in this kernel: ");
	for (size_t i = 0, shown = 0; i < fx->n; i++) {
		sb_adds(why, shown++ ? ", " : "");
		name_fn(why, &fx->fn[i]);
	}
	sb_addf(why, " not in %s", k->desc);
	if (fx->from_place || fx->from_header)
		sb_addf(why, " (functions read in the source tree: %u hunk%s at the place the code "
			"stage found, %u by the function its header names)", fx->from_place,
			fx->from_place == 1 ? "" : "s", fx->from_header);
	return FL_ABSENT;
}

void ck_run_functions(const struct ck_set *s, struct ck_result *res, const struct ck_func_input *in)
{
	if (!in || !in->syms || !in->fix_funcs)
		return;
	for (size_t i = 0; i < res->n; i++) {
		struct ck_entry *e = &res->e[i];
		if (!ck_outcome_kept(e->outcome) || e->outcome == CK_OUT_NO_DATA)
			continue;
		struct fl_fix fx = {0};
		const struct ck_code *code = res->code && res->code[i].checked ? &res->code[i] : NULL;
		if (in->fix_funcs(in->ctx, s, &s->v[e->rec], code, &fx)) {
			struct strbuf why = STRBUF_INIT;
			if (fl_decide(&fx, in->syms, in->builtin, in->ctx, &why) == FL_ABSENT) {
				e->outcome = CK_OUT_NOT_COMPILED;
				e->stage = "functions";
				free(e->reason);
				e->reason = sb_detach(&why);
			}
			sb_release(&why);
		}
		fl_fix_release(&fx);
	}
	ck_result_push_stage(res, "functions");
}
