/* analyzer/model/paths.c — file names relative to the scanned tree (see
 * paths.h). */
#include "paths.h"

#include <string.h>

const char *path_in_tree(const char *path, const char *root)
{
	size_t n;

	if (!path || !root)
		return NULL;
	n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	if (n <= 1)
		return NULL;
	if (strncmp(path, root, n) == 0 && path[n] == '/' && path[n + 1])
		return path + n + 1;
	return NULL;
}
