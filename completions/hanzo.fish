# fish completion for `hanzo code`; copy to ~/.config/fish/completions/hanzo.fish
complete -c hanzo -n '__fish_use_subcommand' -a code -d 'index and search code'
complete -c hanzo -n '__fish_seen_subcommand_from code; and not __fish_seen_subcommand_from index search context tree file' -a 'index search context ask tree file serve mcp'
complete -c hanzo -l org -r -d 'org slug'
complete -c hanzo -l data-dir -r -a '(__fish_complete_directories)' -d 'store directory'
complete -c hanzo -l json -d 'JSON output'
complete -c hanzo -l color -r -a 'auto always never'
complete -c hanzo -n '__fish_seen_subcommand_from search' -s t -l type -r -a 'hybrid text regex symbol semantic'
complete -c hanzo -n '__fish_seen_subcommand_from search' -l limit -r
complete -c hanzo -n '__fish_seen_subcommand_from search' -l all
complete -c hanzo -n '__fish_seen_subcommand_from search' -l refs
complete -c hanzo -n '__fish_seen_subcommand_from search' -s s -l case-sensitive
complete -c hanzo -n '__fish_seen_subcommand_from search' -s i -l ignore-case
complete -c hanzo -n '__fish_seen_subcommand_from search context index' -l embed-model -r
complete -c hanzo -n '__fish_seen_subcommand_from search context tree file index' -l repo -r
complete -c hanzo -n '__fish_seen_subcommand_from index' -l max-file-size -r
complete -c hanzo -n '__fish_seen_subcommand_from index' -l embed
complete -c hanzo -n '__fish_seen_subcommand_from context ask' -l budget -r
complete -c hanzo -n '__fish_seen_subcommand_from tree' -l symbols
complete -c hanzo -n '__fish_seen_subcommand_from file' -l lines -r
complete -c hanzo -n '__fish_seen_subcommand_from ask' -l chat-model -r
complete -c hanzo -n '__fish_seen_subcommand_from index' -l no-symbols
