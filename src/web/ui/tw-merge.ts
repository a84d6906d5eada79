import { createTailwindMerge, validators as v } from 'tailwind-merge';

/**
 * tailwind-merge with only the class groups this app's classes belong to. The default config (every
 * Tailwind utility, 5.6 of the library's 7.4 KB compressed) was in the first load of every screen,
 * the portal's too. The groups below are the default's own definitions, in its order (a class that
 * several groups could take goes to the first, as there), cut to the groups whose classes can meet
 * here (a group with one class in use under given variants conflicts with nothing: it is left out)
 * and, where a group is a list of words, to the words in use.
 *
 * `tw-merge.test.ts` keeps this honest: for every pair of classes written anywhere in src/web, this
 * merge and the library's full one give the same answer. A class of a group not listed here fails
 * it; add the group or the word from tailwind-merge's `getDefaultConfig` (same place in the order).
 */
const spacing = ['px', v.isNumber];
const arbitrary = [v.isArbitraryVariable, v.isArbitraryValue];
const unambiguousSpacing = [...arbitrary, ...spacing];
const inset = [v.isFraction, 'full', 'auto', ...unambiguousSpacing];
const margin = ['auto', ...unambiguousSpacing];
const sizing = [v.isFraction, 'auto', 'full', 'min', 'max', 'fit', ...unambiguousSpacing];
const color = [v.isAny, ...arbitrary];
const borderWidth = ['', v.isNumber, v.isArbitraryVariableLength, v.isArbitraryLength];
const radius = ['', 'none', 'full', v.isTshirtSize, ...arbitrary];
const overflow = ['auto', 'hidden', 'clip', 'visible', 'scroll'];
const blur = ['', 'none', v.isTshirtSize, ...arbitrary];

export const twMerge = createTailwindMerge(() => ({
  cacheSize: 500,
  theme: {},
  classGroups: {
    display: ['block', 'inline', 'flex', 'inline-flex', 'table', 'table-cell', 'grid', 'contents', 'hidden'],
    'object-fit': [{ object: ['contain', 'cover'] }],
    overflow: [{ overflow }],
    'overflow-x': [{ 'overflow-x': overflow }],
    'overflow-y': [{ 'overflow-y': overflow }],
    position: ['fixed', 'absolute', 'relative', 'sticky'],
    inset: [{ inset }],
    'inset-x': [{ 'inset-x': inset }],
    'inset-y': [{ 'inset-y': inset }],
    top: [{ top: inset }],
    right: [{ right: inset }],
    bottom: [{ bottom: inset }],
    left: [{ left: inset }],
    visibility: ['visible', 'invisible', 'collapse'],
    z: [{ z: [v.isInteger, 'auto', ...arbitrary] }],
    basis: [{ basis: [v.isFraction, 'full', 'auto', v.isTshirtSize, ...unambiguousSpacing] }],
    'flex-direction': [{ flex: ['row', 'row-reverse', 'col', 'col-reverse'] }],
    flex: [{ flex: [v.isNumber, v.isFraction, 'auto', 'initial', 'none', v.isArbitraryValue] }],
    shrink: [{ shrink: ['', v.isNumber, ...arbitrary] }],
    'grid-cols': [{ 'grid-cols': [v.isInteger, 'none', 'subgrid', ...arbitrary] }],
    'col-start-end': [
      { col: ['auto', { span: ['full', v.isInteger, ...arbitrary] }, v.isInteger, ...arbitrary] },
    ],
    gap: [{ gap: unambiguousSpacing }],
    'gap-x': [{ 'gap-x': unambiguousSpacing }],
    'gap-y': [{ 'gap-y': unambiguousSpacing }],
    'justify-content': [{ justify: ['start', 'end', 'center', 'between'] }],
    'align-items': [{ items: ['start', 'end', 'center', 'baseline'] }],
    'align-self': [{ self: ['start', 'end', 'center'] }],
    p: [{ p: unambiguousSpacing }],
    px: [{ px: unambiguousSpacing }],
    py: [{ py: unambiguousSpacing }],
    pt: [{ pt: unambiguousSpacing }],
    pr: [{ pr: unambiguousSpacing }],
    pb: [{ pb: unambiguousSpacing }],
    pl: [{ pl: unambiguousSpacing }],
    m: [{ m: margin }],
    mx: [{ mx: margin }],
    my: [{ my: margin }],
    mt: [{ mt: margin }],
    mr: [{ mr: margin }],
    mb: [{ mb: margin }],
    ml: [{ ml: margin }],
    size: [{ size: sizing }],
    w: [{ w: [v.isTshirtSize, 'screen', ...sizing] }],
    'min-w': [{ 'min-w': [v.isTshirtSize, 'screen', 'none', ...sizing] }],
    'max-w': [
      { 'max-w': [v.isTshirtSize, 'screen', 'none', 'prose', { screen: [v.isTshirtSize] }, ...sizing] },
    ],
    h: [{ h: ['screen', 'lh', ...sizing] }],
    'min-h': [{ 'min-h': ['screen', 'lh', 'none', ...sizing] }],
    'max-h': [{ 'max-h': ['screen', 'lh', 'none', ...sizing] }],
    'font-size': [{ text: ['base', v.isTshirtSize, v.isArbitraryVariableLength, v.isArbitraryLength] }],
    'font-weight': [
      { font: ['normal', 'medium', 'semibold', 'bold', v.isArbitraryVariableWeight, v.isArbitraryWeight] },
    ],
    'font-family': [
      { font: [v.isArbitraryVariableFamilyName, v.isArbitraryFamilyName, v.isAnyNonArbitrary] },
    ],
    tracking: [{ tracking: ['tight', 'wide', ...arbitrary] }],
    'line-clamp': [{ 'line-clamp': [v.isNumber, 'none', v.isArbitraryVariable, v.isArbitraryNumber] }],
    leading: [{ leading: ['none', 'tight', 'snug', ...unambiguousSpacing] }],
    'list-style-type': [{ list: ['disc', 'decimal'] }],
    'text-alignment': [{ text: ['left', 'center', 'right'] }],
    'text-color': [{ text: color }],
    'text-decoration': ['underline', 'line-through'],
    'text-transform': ['uppercase', 'lowercase'],
    'vertical-align': [
      {
        align: [
          'baseline',
          'top',
          'middle',
          'bottom',
          'text-top',
          'text-bottom',
          'sub',
          'super',
          ...arbitrary,
        ],
      },
    ],
    whitespace: [{ whitespace: ['normal', 'nowrap', 'pre-line', 'pre-wrap'] }],
    break: [{ break: ['words', 'all'] }],
    'bg-color': [{ bg: color }],
    rounded: [{ rounded: radius }],
    'rounded-b': [{ 'rounded-b': radius }],
    'border-w': [{ border: borderWidth }],
    'border-w-t': [{ 'border-t': borderWidth }],
    'border-w-r': [{ 'border-r': borderWidth }],
    'border-w-b': [{ 'border-b': borderWidth }],
    'border-w-l': [{ 'border-l': borderWidth }],
    'divide-x': [{ 'divide-x': borderWidth }],
    'divide-y': [{ 'divide-y': borderWidth }],
    'border-style': [{ border: ['dashed'] }],
    'border-color': [{ border: color }],
    'divide-color': [{ divide: color }],
    'outline-style': [{ outline: ['dashed', 'none'] }],
    'outline-offset': [{ 'outline-offset': [v.isNumber, ...arbitrary] }],
    'outline-w': [{ outline: borderWidth }],
    'outline-color': [{ outline: color }],
    shadow: [{ shadow: [v.isTshirtSize, v.isArbitraryVariableShadow, v.isArbitraryShadow] }],
    'ring-w': [{ ring: borderWidth }],
    'ring-w-inset': ['ring-inset'],
    'ring-color': [{ ring: color }],
    opacity: [{ opacity: [v.isNumber, ...arbitrary] }],
    'backdrop-blur': [{ 'backdrop-blur': blur }],
    'border-collapse': [{ border: ['collapse', 'separate'] }],
    'border-spacing': [{ 'border-spacing': unambiguousSpacing }],
    transition: [{ transition: ['all', 'colors', 'transform', ...arbitrary] }],
    animate: [{ animate: ['none', 'spin', 'pulse'] }],
    accent: [{ accent: color }],
    cursor: [{ cursor: ['default', 'pointer', 'not-allowed', 'grab', 'grabbing'] }],
  },
  conflictingClassGroups: {
    'border-w': ['border-w-t', 'border-w-r', 'border-w-b', 'border-w-l'],
    flex: ['basis', 'shrink'],
    'font-size': ['leading'],
    gap: ['gap-x', 'gap-y'],
    inset: ['inset-x', 'inset-y', 'top', 'right', 'bottom', 'left'],
    'inset-x': ['right', 'left'],
    'inset-y': ['top', 'bottom'],
    'line-clamp': ['display', 'overflow'],
    m: ['mx', 'my', 'mt', 'mr', 'mb', 'ml'],
    mx: ['mr', 'ml'],
    my: ['mt', 'mb'],
    overflow: ['overflow-x', 'overflow-y'],
    p: ['px', 'py', 'pt', 'pr', 'pb', 'pl'],
    px: ['pr', 'pl'],
    py: ['pt', 'pb'],
    rounded: ['rounded-b'],
    size: ['w', 'h'],
  },
  conflictingClassGroupModifiers: { 'font-size': ['leading'] },
  orderSensitiveModifiers: [
    '*',
    '**',
    'after',
    'backdrop',
    'before',
    'details-content',
    'file',
    'first-letter',
    'first-line',
    'marker',
    'placeholder',
    'selection',
  ],
}));
