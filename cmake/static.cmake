# JEHEAP_STATIC: each pkg-config target and libdwarf link their static archives (.a) with
# the libraries those need in turn (pkg-config --static), so that the binary depends on
# the C library alone (libc, libm, libpthread, the loader: dynamic, as glibc wants).
set(JH_DYNAMIC_OK c m pthread dl rt)

# The archive of library NAME (e.g. "elf" -> /usr/lib/.../libelf.a) into VAR.
function(jh_static_archive var name)
  if(name IN_LIST JH_DYNAMIC_OK)
    set(${var} ${name} PARENT_SCOPE)
    return()
  endif()
  find_library(JH_STATIC_${name} NAMES lib${name}.a REQUIRED)
  set(${var} ${JH_STATIC_${name}} PARENT_SCOPE)
endfunction()

# Points PkgConfig::PREFIX at the static archives of pkg-config --static --libs.
function(jh_static_pkg prefix)
  set(libs)
  foreach(name ${${prefix}_STATIC_LIBRARIES})
    jh_static_archive(a ${name})
    list(APPEND libs ${a})
    if(name STREQUAL "bsd") # libbsd.a needs libmd (Requires.private of libbsd.pc)
      jh_static_archive(md md)
      list(APPEND libs ${md})
    endif()
  endforeach()
  set_target_properties(PkgConfig::${prefix} PROPERTIES INTERFACE_LINK_LIBRARIES "${libs}")
endfunction()

foreach(p LIBELF ZSTD ZLIB PCRE2 LIBEDIT PROTOBUFC)
  jh_static_pkg(${p})
endforeach()
# libdwarf (no .pc file in Debian 12) needs libelf and zlib after it: the archives
# themselves (CMake would drop a second mention of their imported targets)
jh_static_archive(dwarf_a dwarf)
jh_static_archive(elf_a elf)
jh_static_archive(z_a z)
set(LIBDWARF_LIBRARY ${dwarf_a} ${elf_a} ${z_a})
