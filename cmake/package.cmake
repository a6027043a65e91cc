# cpack -G DEB (in the build directory) makes a .deb of the installed files: the binary,
# the man page and the bash completion. Its dependencies are read off the binary
# (dpkg-shlibdeps): a JEHEAP_STATIC build depends on libc6 alone.
set(CPACK_PACKAGE_NAME jeheap)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "jeheap developers <jeheap@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "fast offline analyzer for jemalloc heap profiles")
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS graphviz)
include(CPack)
