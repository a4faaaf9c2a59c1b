# Writes OUT with the commit of SRC; leaves the file untouched when unchanged.
set(commit "unknown")
if(DEFINED ENV{TILEKIT_COMMIT})
  set(commit "$ENV{TILEKIT_COMMIT}")
else()
  execute_process(COMMAND git -C "${SRC}" rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE rev RESULT_VARIABLE rc ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc EQUAL 0 AND rev)
    set(commit "${rev}")
    execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE dirty ERROR_QUIET)
    if(dirty)
      set(commit "${commit}-dirty")
    endif()
  endif()
endif()
set(text "namespace tilekit::detail { const char* git_commit() { return \"${commit}\"; } }\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUT}" "${text}")
endif()
