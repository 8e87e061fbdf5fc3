package datasets

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pueval/pueval/internal/portmath"
)

// Bag-of-words TF-IDF for text documents (20 Newsgroups in the PULP paper,
// which says only "bag-of-words features ... TF-IDF normalization"). We follow
// the defaults of scikit-learn's TfidfVectorizer, the usual tool for it:
//
//   - tokens: maximal runs of ASCII letters, digits and '_' of length >= 2,
//     lower-cased (scikit-learn's token_pattern \b\w\w+\b; bytes outside
//     ASCII separate tokens here, since the corpus is not valid UTF-8);
//   - vocabulary: the max_features terms with the highest count over the
//     corpus (ties: alphabetical), as columns in alphabetical order;
//   - weight: raw term count x idf, idf = ln((1+n)/(1+df)) + 1 (smooth idf);
//   - each row scaled to unit Euclidean length (an empty document stays 0).

// defaultMaxFeatures is the vocabulary size when the catalog does not say.
const defaultMaxFeatures = 1000

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// tokens calls fn for each token of text, lower-cased. The slice passed to
// fn is reused: fn must copy it to keep it.
func tokens(text string, fn func([]byte)) {
	var buf []byte
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		if j-i >= 2 {
			buf = buf[:0]
			for k := i; k < j; k++ {
				c := text[k]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf = append(buf, c)
			}
			fn(buf)
		}
		i = j
	}
}

// tfidfEncoder fits the vocabulary and idf on the kept documents. Each
// document is tokenized once; its term ids are kept for encoding.
func tfidfEncoder(t *sourceTable, col int, keep []int, maxFeatures int) (*encoder, error) {
	if maxFeatures == 0 {
		maxFeatures = defaultMaxFeatures
	}
	ids := map[string]int32{}
	var terms []string
	var count, df, last []int
	docIDs := make([]int32, 0, 1<<20)
	docStart := make([]int, len(keep)+1)
	for k, i := range keep {
		docStart[k] = len(docIDs)
		tokens(t.rows[i][col], func(w []byte) {
			id, ok := ids[string(w)]
			if !ok {
				id = int32(len(terms))
				ids[string(w)] = id
				terms = append(terms, string(w))
				count, df, last = append(count, 0), append(df, 0), append(last, -1)
			}
			count[id]++
			if last[id] != k {
				last[id] = k
				df[id]++
			}
			docIDs = append(docIDs, id)
		})
	}
	docStart[len(keep)] = len(docIDs)
	if len(terms) == 0 {
		return nil, fmt.Errorf("the documents contain no terms")
	}
	order := make([]int32, len(terms))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(terms[a], terms[b])
	})
	if len(order) > maxFeatures {
		order = order[:maxFeatures]
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(terms[a], terms[b]) })
	colOf := make([]int32, len(terms))
	for i := range colOf {
		colOf[i] = -1
	}
	idf := make([]float64, len(order))
	n := float64(len(keep))
	e := &encoder{src: col}
	for k, id := range order {
		colOf[id] = int32(k)
		// portmath: math.Log's bits differ between amd64 and arm64.
		idf[k] = portmath.Log((1+n)/(1+float64(df[id]))) + 1
		e.cols = append(e.cols, Column{Name: terms[id], Kind: Numeric, Source: "text"})
	}
	docOf := make(map[int]int, len(keep))
	for k, i := range keep {
		docOf[i] = k
	}
	e.encode = func(row int, _ string, out []float64) error {
		k, ok := docOf[row]
		if !ok {
			return fmt.Errorf("row %d was not among the documents the vocabulary was fitted on", row)
		}
		for _, id := range docIDs[docStart[k]:docStart[k+1]] {
			if c := colOf[id]; c >= 0 {
				out[c]++
			}
		}
		ss := 0.0
		for k, c := range out {
			if c != 0 {
				out[k] = c * idf[k]
				// Rounded before adding: no fused multiply-add on arm64.
				ss += float64(out[k] * out[k])
			}
		}
		if ss > 0 {
			norm := math.Sqrt(ss)
			for k := range out {
				out[k] /= norm
			}
		}
		return nil
	}
	return e, nil
}
