# rooflint_analyze(TARGET t): placeholder until the analyzer lands.
function(rooflint_analyze)
endfunction()
