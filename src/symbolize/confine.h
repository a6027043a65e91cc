/*
 * confine.h - paths looked up inside a directory as chroot would: the
 * lookups of --sysroot, --path-map and --debug-dir never leave the
 * directories given.
 */
#ifndef JEHEAP_CONFINE_H
#define JEHEAP_CONFINE_H

/*
 * The host path of path as seen with root as "/": each component is looked
 * up in turn; an absolute symbolic link restarts at root (as under chroot,
 * normal in debootstrap and container roots), a relative one continues from
 * its directory. A ".." that would climb above root, from path itself or
 * from a link's target, and more than 40 links, are refused: NULL, with a
 * warning (jh_warn) naming path and root. Components that do not exist are
 * kept as written. Returns a malloc'd path.
 */
char *jh_confine(const char *root, const char *path);

#endif
