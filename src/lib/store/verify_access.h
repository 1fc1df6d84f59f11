/* The tree-access part of kcve verify (links, special files, oversize files, unsafe names,
 * foreign or pending journals). */
#ifndef KCVE_STORE_VERIFY_ACCESS_H
#define KCVE_STORE_VERIFY_ACCESS_H

#include <stddef.h>
#include <stdio.h>

#include "store/tree.h"

/* One line "<path>: <rule>: <evidence>" per refused entry; returns their number. */
size_t verify_tree_access(struct cve_tree *t, FILE *out);

#endif
