# Sourced by install.sh (bash): the shells' startup files, where the
# fleetcom init line goes. install.sh finds the line there when it is
# already in place, and --uninstall removes it.
#
# The startup files: finding, and removing, the fleetcom init lines. A line
# is removed only when it is one of the forms fleetcom documents, a command
# of its own (not continued from the line before, not inside a here-document)
# and the file still parses without it, in the shell that reads it (an
# `if … then` whose only command it is would be left as `then fi`, which
# bash rejects). The file is rewritten through a temp file beside its real
# target (a symlink stays a symlink), checked, synced and renamed over it;
# on any error it is left as it was. Every line not removed is named with
# its file and line number.

# startup_files fills STARTUP_FILES with the startup files of bash, zsh
# and fish that exist.
startup_files() {
	local zdot=$HOME config f
	case ${ZDOTDIR:-} in /*) zdot=$ZDOTDIR ;; esac
	config=$(xdg XDG_CONFIG_HOME "$HOME/.config")
	STARTUP_FILES=()
	for f in "$HOME/.bashrc" "$HOME/.bash_profile" "$HOME/.bash_login" "$HOME/.profile" \
		"$zdot/.zshenv" "$zdot/.zprofile" "$zdot/.zshrc" "$zdot/.zlogin" \
		"$config/fish/config.fish" "$config"/fish/conf.d/*.fish; do
		if [ -f "$f" ]; then STARTUP_FILES+=("$f"); fi
	done
}

# file_kind names the shell that reads a startup file: bash, sh (~/.profile,
# read by bash and sh), zsh or fish.
file_kind() {
	case $(basename -- "$1") in
	*.fish) echo fish ;;
	.zsh* | .zprofile | .zlogin) echo zsh ;;
	.profile) echo sh ;;
	*) echo bash ;;
	esac
}

# init_word succeeds for a line in one of the documented forms, with the
# word that names fleetcom, unquoted, in REPLY:
#   eval "$(W init SHELL)"   source <(W init SHELL)   . <(W init SHELL)
#   W init fish | source      source (W init fish | psub)
# optionally after a guard ([ -x W ] &&, command -v W >/dev/null &&,
# [ -z "$BASH_VERSION" ] ||, type -q W; and …) and before a ; or a comment.
init_word() {
	local s=$1 q="'" w sp='[[:space:]]'
	local W="((${q}[^${q}]*${q}|\"[^\"\`]*\"|[^[:space:]\"${q}\`;&|()<>])+)"
	local guard="^((\\[|test)$sp+-[xef]$sp+$W$sp*\\]?|(command$sp+-v|type|which)$sp+$W($sp+[0-9&]?>+$sp*[^[:space:]]+)*)$sp*&&$sp*(.*)\$"
	local bashonly="^(\\[|test)$sp+-([nz])$sp+\"?[\$]\\{?BASH_VERSION\\}?\"?$sp*\\]?$sp*(&&|\\|\\|)$sp*(.*)\$"
	local fguard="^((type|command)$sp+-q$sp+$W|status$sp+(--)?is-interactive|test$sp+-[xef]$sp+$W)$sp*;$sp*and$sp+(.*)\$"
	local eval="^eval$sp+\"[\$]\\($W$sp+init$sp+(bash|zsh|sh)\\)\"\$"
	local src="^(source|[.])$sp+<\\($W$sp+init$sp+(bash|zsh)\\)\$"
	local fish="^$W$sp+init$sp+fish$sp*[|]$sp*source($sp+-)?\$"
	local psub="^source$sp+\\($W$sp+init$sp+fish$sp*[|]$sp*psub\\)\$"
	s=${s%$'\r'}
	s=${s#"${s%%[![:space:]]*}"}
	s=${s%"${s##*[![:space:]]}"}
	s=$(strip_comment "$s")
	s=${s%;}
	s=${s%"${s##*[![:space:]]}"}
	if [[ $s =~ $bashonly ]] && [[ ${BASH_REMATCH[2]}${BASH_REMATCH[3]} == "n&&" || ${BASH_REMATCH[2]}${BASH_REMATCH[3]} == "z||" ]]; then
		s=${BASH_REMATCH[4]}
	elif [[ $s =~ $guard ]] || [[ $s =~ $fguard ]]; then
		s=${BASH_REMATCH[${#BASH_REMATCH[@]} - 1]}
	fi
	if [[ $s =~ $eval ]] || [[ $s =~ $fish ]] || [[ $s =~ $psub ]]; then
		w=${BASH_REMATCH[1]}
	elif [[ $s =~ $src ]]; then
		w=${BASH_REMATCH[2]}
	else
		return 1
	fi
	REPLY=''
	while [ -n "$w" ]; do
		case $w in
		"'"*) w=${w#?} REPLY+=${w%%"'"*} w=${w#*"'"} ;;
		'"'*) w=${w#?} REPLY+=${w%%'"'*} w=${w#*'"'} ;;
		*) REPLY+=${w%"${w#?}"} w=${w#?} ;;
		esac
	done
	case $REPLY in fleetcom | */fleetcom) ;; *) return 1 ;; esac
}

# strip_comment prints a line without its comment: from a # that starts a
# word outside quotes.
strip_comment() {
	local s=$1 i c quote='' prev=' '
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		if [ -n "$quote" ]; then
			[ "$c" = "$quote" ] && quote=''
		elif [ "$c" = "'" ] || [ "$c" = '"' ]; then
			quote=$c
		elif [ "$c" = '#' ] && [[ $prev == [[:space:]\;] ]]; then
			s=${s:0:i}
			break
		fi
		prev=$c
	done
	printf '%s' "${s%"${s##*[![:space:]]}"}"
}

# scan_rc reads a startup file: LINES_OF (each line with its newline, the
# last one maybe without), SIZE_READ (their bytes), INIT_AT (the lines that
# run fleetcom init), SAFE_AT (those install.sh can remove) and FLEET_AT
# (the other lines that name fleetcom), as 0-based indexes.
scan_rc() {
	local LC_ALL=C file=$1 kind line i=0 heredoc='' dash='' text
	kind=$(file_kind "$file")
	LINES_OF=() INIT_AT=() SAFE_AT=() FLEET_AT=() WHY_OF=() SIZE_READ=0
	while IFS= read -r line; do
		LINES_OF+=("$line"$'\n')
	done <"$file" || return 1
	[ -z "$line" ] || LINES_OF+=("$line")
	for ((i = 0; i < ${#LINES_OF[@]}; i++)); do
		line=${LINES_OF[i]}
		SIZE_READ=$((SIZE_READ + ${#line}))
		text=${line%$'\n'}
		text=${text%$'\r'}
		if [ -n "$heredoc" ]; then
			[ -n "$dash" ] && text=${text#"${text%%[!$'\t']*}"}
			[ "$text" = "$heredoc" ] && heredoc=''
			[[ $text == *fleetcom* ]] && FLEET_AT+=("$i")
			continue
		fi
		if [ "$kind" != fish ] && [[ $text == *'<<'* ]] && [[ $text =~ \<\<(-?)[[:space:]]*[\"\']?([A-Za-z_][A-Za-z0-9_]*) ]] && [[ $text != *'<<<'* ]]; then
			dash=${BASH_REMATCH[1]} heredoc=${BASH_REMATCH[2]}
		fi
		[[ $text == *fleetcom* ]] || continue
		[[ $text =~ ^[[:space:]]*# ]] && continue
		if [[ $text =~ fleetcom[\"\']?[[:space:]]+init([^[:alnum:]_-]|$) ]]; then
			INIT_AT+=("$i")
			if ! init_word "$text"; then
				WHY_OF[i]='not a form install.sh removes'
			elif own_command "$i" "$kind"; then
				SAFE_AT+=("$i")
			else
				WHY_OF[i]=$REPLY
			fi
		else
			FLEET_AT+=("$i")
		fi
	done
}

# significant prints the first line from index $1 on, stepping by $2, that
# is neither blank nor a comment, trimmed ("" at either end of the file).
significant() {
	local i=$1 t
	while [ "$i" -ge 0 ] && [ "$i" -lt ${#LINES_OF[@]} ]; do
		t=${LINES_OF[i]%$'\n'}
		t=${t%$'\r'}
		t=${t#"${t%%[![:space:]]*}"}
		t=${t%"${t##*[![:space:]]}"}
		if [ -n "$t" ] && [[ $t != \#* ]]; then
			printf '%s' "$t"
			return
		fi
		i=$((i + $2))
	done
}

# own_command reports whether line $1 is a command of its own: the line
# before does not continue onto it (\, &&, ||, |); and, where no parser of
# the file's shell is installed to check the result, it is not the only
# command between then/else/do/{ and fi/else/elif/done/}. When not, REPLY
# says why.
own_command() {
	local p n
	REPLY='it continues the line before it'
	if [ "$1" -gt 0 ]; then
		p=${LINES_OF[$1 - 1]%$'\n'}
		p=${p%$'\r'}
		[[ $p == *\\ ]] && return 1
	fi
	p=$(significant $(($1 - 1)) -1)
	[[ $p =~ (\&\&|\|\||\|)$ ]] && return 1
	parser "$2" >/dev/null && return 0
	REPLY='it is the only command of its block'
	n=$(significant $(($1 + 1)) 1)
	! { [[ $p =~ (^|[[:space:]\;])(then|else|do|\{)$ ]] && [[ $n =~ ^(fi|else|elif|done|\}|esac)([[:space:]\;]|$) ]]; }
}

# parser prints the shell that checks a file's syntax (with -n, without
# running it), and fails when that shell is not installed.
parser() {
	case $1 in
	fish | zsh) command -v "$1" 2>/dev/null ;;
	*) printf '%s' "$BASH" ;;
	esac
}

# parses reports whether the lines of LINES_OF, without those listed in
# $2 (" 3 7 "), parse in the file's shell ($1). No parser: yes.
parses() {
	local p i
	p=$(parser "$1") || return 0
	for ((i = 0; i < ${#LINES_OF[@]}; i++)); do
		[[ $2 == *" $i "* ]] || printf '%s' "${LINES_OF[i]}"
	done | "$p" -n >/dev/null 2>&1
}

# clean_rc removes the fleetcom init lines of one startup file that can go
# safely, and names every other line that still runs or names fleetcom. It
# fails when the file could not be rewritten.
clean_rc() {
	local file=$1 kind i drop=' ' why
	kind=$(file_kind "$file")
	if ! scan_rc "$file"; then
		warn "cannot read $file: look for fleetcom lines in it by hand"
		return 0
	fi
	if [ ${#SAFE_AT[@]} -gt 0 ] && parses "$kind" ' '; then
		for i in ${SAFE_AT[@]+"${SAFE_AT[@]}"}; do
			if parses "$kind" "$drop$i "; then
				drop+="$i "
			else
				WHY_OF[i]='the file would not parse without it: it is the only command of its block'
			fi
		done
	else
		for i in ${SAFE_AT[@]+"${SAFE_AT[@]}"}; do WHY_OF[i]="the file does not parse as $kind now"; done
	fi
	if [ "$drop" != ' ' ]; then
		if why=$(rewrite_rc "$file" "$drop"); then
			for i in $drop; do
				printf 'removed the fleetcom line %s:%d: %s\n' "$file" $((i + 1)) "$(line_text "$i")"
			done
		else
			for i in $drop; do
				printf 'install.sh: error: could not rewrite %s (%s), left it as it was: delete line %d by hand: %s\n' \
					"$file" "$why" $((i + 1)) "$(line_text "$i")" >&2
			done
		fi
	fi
	for i in ${INIT_AT[@]+"${INIT_AT[@]}"}; do
		[[ $drop == *" $i "* ]] ||
			warn "$file:$((i + 1)) still runs fleetcom init, left in place (${WHY_OF[i]-it could not be removed safely}): delete it by hand: $(line_text "$i")"
	done
	for i in ${FLEET_AT[@]+"${FLEET_AT[@]}"}; do
		warn "$file:$((i + 1)) still names fleetcom: $(line_text "$i")"
	done
	[ -z "${why:-}" ]
}

line_text() {
	local t=${LINES_OF[$1]%$'\n'}
	printf '%s' "${t%$'\r'}"
}

# rewrite_rc writes LINES_OF without the lines listed in $2 over a startup
# file: a temp file beside its real target, checked to hold every byte
# expected, with the target's mode, synced, then renamed over the target.
# On any error it removes the temp file, prints why and fails.
rewrite_rc() {
	local LC_ALL=C file=$1 drop=$2 target dir tmp mode err expected=0 size i
	target=$(real_path "$file") || { echo "it is a symlink loop"; return 1; }
	size=$(wc -c <"$target" | tr -d ' ')
	[ "$size" = "$SIZE_READ" ] || { echo "it holds bytes a shell script cannot carry, or it changed"; return 1; }
	[ -w "$target" ] || { echo "it is not writable"; return 1; }
	dir=$(dirname -- "$target")
	tmp=$(mktemp "$dir/.$(basename -- "$target").fleetcom-XXXXXX" 2>&1) || { echo "cannot create a temporary file in $dir: $tmp"; return 1; }
	for ((i = 0; i < ${#LINES_OF[@]}; i++)); do
		[[ $drop == *" $i "* ]] || expected=$((expected + ${#LINES_OF[i]}))
	done
	if ! err=$({ for ((i = 0; i < ${#LINES_OF[@]}; i++)); do
		[[ $drop == *" $i "* ]] || printf '%s' "${LINES_OF[i]}" || exit 1
	done >"$tmp"; } 2>&1); then
		rm -f -- "$tmp"
		echo "writing it failed: ${err##*: }"
		return 1
	fi
	size=$(wc -c <"$tmp" | tr -d ' ')
	if [ "$size" != "$expected" ]; then
		rm -f -- "$tmp"
		echo "wrote $size of $expected bytes"
		return 1
	fi
	mode=$(stat -c %a -- "$target" 2>/dev/null || stat -f %Lp -- "$target" 2>/dev/null) &&
		chmod "$mode" "$tmp" && { sync -- "$tmp" 2>/dev/null || sync; } &&
		mv -f -- "$tmp" "$target" || {
		rm -f -- "$tmp"
		echo "replacing it failed"
		return 1
	}
	sync -- "$dir" 2>/dev/null || true
}

# real_path follows a chain of symlinks to the file it ends at.
real_path() {
	local f=$1 t n=0
	while [ -L "$f" ]; do
		[ $n -lt 40 ] || return 1
		t=$(readlink -- "$f") || return 1
		case $t in /*) f=$t ;; *) f=$(dirname -- "$f")/$t ;; esac
		n=$((n + 1))
	done
	printf '%s' "$f"
}

