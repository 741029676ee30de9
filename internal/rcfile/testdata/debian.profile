# A login shell's profile with the logic of the one Debian and Ubuntu put
# in every new home directory (/etc/skel/.profile), for the tests. sh reads
# it at login, and so does bash when there is no ~/.bash_profile and no
# ~/.bash_login.

# bash: take in the interactive settings too, where the fleetcom line is.
if [ -n "$BASH_VERSION" ]; then
    if [ -f "$HOME/.bashrc" ]; then
	. "$HOME/.bashrc"
    fi
fi

# Then a bin directory of the user's own goes in front of PATH, if there
# is one,
if [ -d "$HOME/bin" ] ; then
    PATH="$HOME/bin:$PATH"
fi

# and so does ~/.local/bin, where per-user installers (Claude Code's among
# them) put their programs.
if [ -d "$HOME/.local/bin" ] ; then
    PATH="$HOME/.local/bin:$PATH"
fi
