package view

import "github.com/redactd/redactd/engine/detect/lang"

// Blocks and their languages (issue 46). A block is a paragraph: a run
// of lines each of which flows on to the next (FlowsOn). A document may
// mix languages, so each block has its own. No recognizer reads it; two
// rules do (trim-lowercase-names, and grow-person for French "Me").

// identifyBlocks cuts the view into blocks and tells each one's language
// (lang.Identify over the block's text). A block it cannot tell surely
// takes the request's hint or, without one, the page's language as its
// blocks vote it (lang.Vote): a headline or a form's short lines are in
// the language of the text around them.
func (v *View) identifyBlocks() {
	v.lineBlock = make([]int32, len(v.lines))
	for first := 0; first < len(v.lines); {
		end := first + 1
		for end < len(v.lines) && v.FlowsOn(end-1) {
			end++
		}
		s, _ := v.LineRange(first)
		_, e := v.LineRange(end - 1)
		for ln := first; ln < end; ln++ {
			v.lineBlock[ln] = int32(len(v.blockLang))
		}
		v.blockLang = append(v.blockLang, lang.Identify(v.Text[s:e]))
		first = end
	}
	hint := v.langHint
	if hint == lang.Unknown {
		hint = lang.Vote(v.blockLang)
	}
	for b, r := range v.blockLang {
		v.blockLang[b] = lang.Hint(r, hint)
	}
}

func (v *View) blocks() {
	v.langOnce.Do(v.identifyBlocks)
}

// SetLangHint sets the request's language hint (the job's `language`,
// detect.Options.Language): a block whose language lang.Identify cannot
// tell surely (fewer than lang.SureTrigrams trigrams: a heading, a short
// line, a line of numbers) takes the hint; a sure block keeps its own.
// It must be called before the first call of Blocks, BlockOf, BlockLang
// or Lang; lang.Unknown (the default, `auto`) is no hint.
func (v *View) SetLangHint(c lang.Code) { v.langHint = c }

// Blocks is the number of blocks (paragraphs) of the view. The blocks
// and their languages are found once per view, on the first call of
// Blocks, BlockOf or Lang, so a detection that reads none pays nothing.
func (v *View) Blocks() int { v.blocks(); return len(v.blockLang) }

// BlockOf is the block that word i lies in.
func (v *View) BlockOf(i int) int { v.blocks(); return int(v.lineBlock[v.line[i]]) }

// BlockLang is what lang.Identify tells of block b: its language
// (lang.Unknown when it has too few letters), with the trigrams read and
// the margin, or the hint (SetLangHint) where Identify is not sure.
func (v *View) BlockLang(b int) lang.Result { v.blocks(); return v.blockLang[b] }

// Lang is the language of the block word i lies in (lang.Unknown when
// the block has too few letters to tell).
func (v *View) Lang(i int) lang.Code { return v.BlockLang(v.BlockOf(i)).Lang }
