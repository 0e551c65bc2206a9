package command

import (
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
)

// The words of the commands live in the catalogue (assets/lang), under
// "cmd.": a subcommand's description is its Key()+".desc" and its name
// in a language Key()+".name"; an option's are under its own Key; a
// group's under GroupKey. English is what Description holds and what the
// parser takes (Discord sends the English names whatever the user's
// language); the other languages are offered on Discord as localisations.

// Key is the catalogue key of the subcommand's words: "cmd.attack",
// "cmd.host.addbot", "cmd.admin.map.add".
func (s Spec) Key() string { return "cmd." + strings.ReplaceAll(s.FullName(), " ", ".") }

// Describe is the subcommand's description in p's language.
func (s Spec) Describe(p lang.Printer) string { return word(p, s.Key()+".desc", s.Description) }

// LocalName is the subcommand's name as Discord shows it in p's language.
func (s Spec) LocalName(p lang.Printer) string { return word(p, s.Key()+".name", s.Name) }

// Describe is the option's description in p's language.
func (o Option) Describe(p lang.Printer) string {
	return word(p, o.Key+".desc", o.Description, o.DescArgs...)
}

// LocalName is the option's name as Discord shows it in p's language.
func (o Option) LocalName(p lang.Printer) string { return word(p, o.Key+".name", o.Name) }

// ChoiceKey is the catalogue key of the menu name of the option's i-th
// choice: KEY.choice.VALUE, a "/" in the value a dash ("1/4": "1-4").
func (o Option) ChoiceKey(i int) string {
	return o.Key + ".choice." + strings.ReplaceAll(o.Choices[i], "/", "-")
}

// ChoiceName is the menu name of the option's i-th choice in p's language
// (the value is what is sent): English's is the value itself, or what it
// means where a value alone says too little (Labels).
func (o Option) ChoiceName(p lang.Printer, i int) string {
	def := o.Choices[i]
	if i < len(o.Labels) {
		def = o.Labels[i]
	}
	return word(p, o.ChoiceKey(i), def)
}

// GroupKey is the catalogue key of a subcommand group's words ("cmd.host",
// "cmd.admin.map"); the group "admin" is /risk-admin.
func GroupKey(group string) string { return "cmd." + strings.ReplaceAll(group, " ", ".") }

// GroupDescribe is a subcommand group's description in p's language.
func GroupDescribe(p lang.Printer, group string) string { return word(p, GroupKey(group)+".desc", "") }

// GroupLocalName is a subcommand group's name (its last word: "map" for
// "admin map") as Discord shows it in p's language.
func GroupLocalName(p lang.Printer, group string) string {
	return word(p, GroupKey(group)+".name", group[strings.LastIndex(group, " ")+1:])
}

// Describe is a top-level command's description in p's language: /risk's,
// or /risk-admin's (its group's).
func Describe(p lang.Printer, command string) string {
	if command == AdminCommandName {
		return GroupDescribe(p, AdminGroup)
	}
	return p.T("cmd.risk.desc")
}

// word is the catalogue's words for key in p's language, or def where
// the catalogue has none (a subcommand or option made outside Specs, as
// in tests, has no key: it keeps its own words in every language).
func word(p lang.Printer, key, def string, args ...any) string {
	if strings.HasPrefix(key, ".") {
		return def
	}
	if w := p.T(key, args...); w != key {
		return w
	}
	return def
}

// worded are the subcommands with the keys of their options set, and
// their English descriptions from the catalogue.
func worded(specs []Spec) []Spec {
	for i, s := range specs {
		s.Description = lang.M(s.Key() + ".desc").String()
		opts := make([]Option, len(s.Options))
		for j, o := range s.Options {
			opts[j] = o.worded(s.Key())
		}
		s.Options = opts
		specs[i] = s
	}
	return specs
}

// worded is the option with its key (prefix.opt.NAME, unless it has its
// own) and its English description.
func (o Option) worded(prefix string) Option {
	if o.Key == "" {
		o.Key = prefix + ".opt." + o.Name
	}
	o.Description = lang.M(o.Key+".desc", o.DescArgs...).String()
	return o
}
