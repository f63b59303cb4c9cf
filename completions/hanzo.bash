# bash completion for `hanzo code`; source it, or install to /usr/share/bash-completion/completions/hanzo
_hanzo() {
  local cur prev sub
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  local globals="--org --data-dir --json --color --help"
  if [[ $COMP_CWORD -eq 1 ]]; then COMPREPLY=($(compgen -W "code --help --version" -- "$cur")); return; fi
  if [[ $COMP_CWORD -eq 2 ]]; then COMPREPLY=($(compgen -W "index search context ask tree file serve mcp $globals" -- "$cur")); return; fi
  sub="${COMP_WORDS[2]}"
  case "$prev" in
    -t|--type) COMPREPLY=($(compgen -W "hybrid text regex symbol semantic" -- "$cur")); return ;;
    --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --data-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
  esac
  case "$sub" in
    index) COMPREPLY=($(compgen -W "--repo --max-file-size --no-symbols --embed --embed-model $globals" -- "$cur")); [[ $cur != -* ]] && COMPREPLY+=($(compgen -d -- "$cur")) ;;
    search) COMPREPLY=($(compgen -W "--type --repo --limit --all --refs --case-sensitive --ignore-case --embed-model $globals" -- "$cur")) ;;
    context) COMPREPLY=($(compgen -W "--budget --repo --embed-model $globals" -- "$cur")) ;;
    ask) COMPREPLY=($(compgen -W "--budget --repo --chat-model --embed-model $globals" -- "$cur")) ;;
    tree) COMPREPLY=($(compgen -W "--repo --symbols $globals" -- "$cur")) ;;
    file) COMPREPLY=($(compgen -W "--repo --lines $globals" -- "$cur")) ;;
    serve) COMPREPLY=($(compgen -W "--port --host $globals" -- "$cur")) ;;
  esac
}
complete -F _hanzo hanzo
