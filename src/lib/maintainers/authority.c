/* Dispute authority from MAINTAINERS (policy in authority.h). */
#include "maintainers/authority.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/xalloc.h"
#include "maintainers/email.h"

static bool eligible(const struct mnt_section *s, const char **why)
{
	if (s->the_rest) {
		*why = "only THE REST covers it";
		return false;
	}
	if (s->orphan) {
		*why = "its section is orphaned";
		return false;
	}
	if (!s->has_maintainer) {
		*why = "its section has no maintainer";
		return false;
	}
	return true;
}

static void add_person(struct authority_file *f, size_t *alloc, const char *display, char role)
{
	char *addr = mnt_email_address_lc(display);
	if (!*addr) {
		free(addr);
		return;
	}
	for (size_t i = 0; i < f->npeople; i++) {
		if (strcmp(f->people[i].addr, addr) == 0) {
			if (role == 'M')
				f->people[i].role = 'M';   /* a maintainer elsewhere beats reviewer */
			free(addr);
			return;
		}
	}
	XGROW(f->people, f->npeople + 1, *alloc);
	f->people[f->npeople].display = xstrdup(display);
	f->people[f->npeople].addr = addr;
	f->people[f->npeople].role = role;
	f->npeople++;
}

void authority_compute(const struct maintainers *m, const char *const *files, size_t nfiles,
                       struct authority *out)
{
	out->files = xcalloc(nfiles ? nfiles : 1, sizeof(*out->files));
	out->nfiles = nfiles;
	for (size_t fi = 0; fi < nfiles; fi++) {
		struct authority_file *f = &out->files[fi];
		f->file = mnt_canonpath(files[fi]);
		struct mnt_hit *hits;
		size_t n = maintainers_match(m, f->file, &hits);
		const char *why = "no MAINTAINERS section covers it";
		bool found = false;
		size_t salloc = 0, palloc = 0;
		for (size_t i = 0; i < n; i++) {
			const struct mnt_section *s = &m->sec[hits[i].section];
			if (!eligible(s, &why))
				continue;
			if (found && hits[i].depth != f->depth)
				break;   /* only the most specific eligible depth decides */
			found = true;
			f->depth = hits[i].depth;
			XGROW(f->sections, f->nsections + 1, salloc);
			f->sections[f->nsections++] = hits[i].section;
		}
		free(hits);
		struct strbuf d = STRBUF_INIT;
		for (size_t k = 0; k < f->nsections; k++)
			sb_addf(&d, "%s\"%s\"", k ? " and " : "", m->sec[f->sections[k]].name);
		f->section_desc = sb_detach(&d);
		if (!found) {
			f->why_none = why;
			continue;
		}
		for (int pass = 0; pass < 2; pass++) {
			char tag = pass == 0 ? 'M' : 'R';
			for (size_t k = 0; k < f->nsections; k++) {
				const struct mnt_section *s = &m->sec[f->sections[k]];
				size_t pos = 0;
				const char *v;
				while ((v = mnt_section_next(m, s, tag, &pos))) {
					char **parts;
					size_t np = mnt_split_addresses(v, &parts);
					for (size_t j = 0; j < np; j++)
						add_person(f, &palloc, parts[j], tag);
					mnt_free_strv(parts, np);
				}
			}
		}
	}
}

void authority_release(struct authority *a)
{
	for (size_t i = 0; i < a->nfiles; i++) {
		struct authority_file *f = &a->files[i];
		free(f->file);
		free(f->sections);
		free(f->section_desc);
		for (size_t k = 0; k < f->npeople; k++) {
			free(f->people[k].display);
			free(f->people[k].addr);
		}
		free(f->people);
	}
	free(a->files);
	memset(a, 0, sizeof(*a));
}

static char *norm_addr(const char *email)
{
	char *a = mnt_email_address_lc(email);
	if (!*a) {
		free(a);
		a = xstrdup(email);
		for (char *p = a; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	}
	return a;
}

static int person_role(const struct authority_file *f, const char *addr)
{
	for (size_t k = 0; k < f->npeople; k++)
		if (strcmp(f->people[k].addr, addr) == 0)
			return f->people[k].role;
	return 0;
}

static void list_deciders(const struct authority *a, struct strbuf *out)
{
	size_t count = 0;
	for (size_t i = 0; i < a->nfiles; i++) {
		const struct authority_file *f = &a->files[i];
		for (size_t k = 0; k < f->npeople; k++) {
			if (f->people[k].role != 'M')
				continue;
			bool dup = false;
			for (size_t j = 0; j <= i && !dup; j++) {
				const struct authority_file *g = &a->files[j];
				for (size_t q = 0; q < (j == i ? k : g->npeople); q++)
					if (g->people[q].role == 'M' &&
					    strcmp(g->people[q].addr, f->people[k].addr) == 0)
						dup = true;
			}
			if (dup)
				continue;
			sb_addf(out, "%s%s", count++ ? ", " : "", f->people[k].display);
		}
	}
	if (!count)
		sb_adds(out, "nobody (no maintained subsystem section covers the files)");
}

bool authority_decide(const struct authority *a, const char *const *emails, size_t nemails,
                      struct strbuf *why, struct strbuf *deciders)
{
	if (deciders)
		list_deciders(a, deciders);
	size_t with = 0;
	for (size_t i = 0; i < a->nfiles; i++)
		with += a->files[i].npeople && a->files[i].nsections;
	if (with == 0) {
		sb_adds(why, "no affected file is covered by a maintained subsystem section "
		             "(THE REST and orphaned sections give no dispute authority)");
		return false;
	}
	char **addrs = xcalloc(nemails ? nemails : 1, sizeof(*addrs));
	for (size_t e = 0; e < nemails; e++)
		addrs[e] = norm_addr(emails[e]);
	bool ok = nemails > 0;
	if (!ok)
		sb_adds(why, "no disputer given");
	/* every disputer must decide for at least one file */
	for (size_t e = 0; e < nemails && ok; e++) {
		bool maint = false, reviewer = false;
		for (size_t i = 0; i < a->nfiles; i++) {
			int r = person_role(&a->files[i], addrs[e]);
			maint |= r == 'M';
			reviewer |= r == 'R';
		}
		if (!maint) {
			ok = false;
			if (reviewer)
				sb_addf(why, "%s is only a reviewer (R:) of the affected subsystem; reviewers "
				             "cannot dispute", emails[e]);
			else
				sb_addf(why, "%s is not a maintainer of the most specific subsystem of any "
				             "affected file", emails[e]);
		}
	}
	/* every file with deciders must have one of them among the disputers */
	for (size_t i = 0; i < a->nfiles && ok; i++) {
		const struct authority_file *f = &a->files[i];
		if (!f->nsections)
			continue;
		bool covered = false;
		for (size_t e = 0; e < nemails && !covered; e++)
			covered = person_role(f, addrs[e]) == 'M';
		if (!covered) {
			ok = false;
			sb_addf(why, "%s belongs to %s, whose maintainers must join the dispute "
			             "(a fix spanning subsystems needs a maintainer of each)",
			        f->file, f->section_desc);
		}
	}
	if (ok)
		sb_adds(why, "the disputers maintain the most specific subsystem of every affected file");
	for (size_t e = 0; e < nemails; e++)
		free(addrs[e]);
	free(addrs);
	return ok;
}
