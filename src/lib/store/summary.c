/* kcve summary counts (see summary.h): the same file counts as the CNA's scripts/summary. */
#include "store/summary.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/xalloc.h"
#include "store/tree_internal.h"

static struct summary_row *row_for(struct summary_row **rows, size_t *n, size_t *alloc, int year)
{
	for (size_t i = 0; i < *n; i++)
		if ((*rows)[i].year == year)
			return &(*rows)[i];
	XGROW(*rows, *n + 1, *alloc);
	size_t i = *n;
	while (i > 0 && (*rows)[i - 1].year > year) {
		(*rows)[i] = (*rows)[i - 1];
		i--;
	}
	memset(&(*rows)[i], 0, sizeof(**rows));
	(*rows)[i].year = year;
	(*n)++;
	return &(*rows)[i];
}

/* Files in a state/year directory: all CVE names, or only "*.sha1". */
static size_t count_files(const struct cve_tree *t, enum cve_state s, int year, bool sha1_only)
{
	char *dir = tree_state_year_dir(t, s, year);
	DIR *d = dir_open(dir);
	free(dir);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t k = cve_id_prefix_len(de->d_name);
		if (!k || tree_is_temp_name(de->d_name))
			continue;
		if (sha1_only ? strcmp(de->d_name + k, ".sha1") == 0 : de->d_name[k] == '\0')
			n++;
	}
	closedir(d);
	return n;
}

size_t store_summary(struct cve_tree *t, struct summary_row **rows)
{
	*rows = NULL;
	size_t n = 0, alloc = 0;
	static const enum cve_state st[] = {CVE_RESERVED, CVE_PUBLISHED, CVE_REJECTED,
					    CVE_RETURNED};
	for (size_t s = 0; s < 4; s++) {
		int *years;
		size_t ny = tree_years(t, st[s], &years);
		for (size_t k = 0; k < ny; k++) {
			bool sha1 = st[s] == CVE_PUBLISHED || st[s] == CVE_REJECTED;
			size_t c = count_files(t, st[s], years[k], sha1);
			if (!c)
				continue;
			struct summary_row *r = row_for(rows, &n, &alloc, years[k]);
			switch (st[s]) {
			case CVE_RESERVED: r->reserved += c; break;
			case CVE_PUBLISHED: r->assigned += c; break;
			case CVE_REJECTED: r->rejected += c; break;
			case CVE_RETURNED: r->returned += c; break;
			}
		}
		free(years);
	}
	return n;
}
