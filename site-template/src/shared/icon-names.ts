/**
 * Every icon name the `icon` prop and `<Icon>` accept: the file names of Lucide (`lucide-static/icons`)
 * and of Font Awesome Free's solid, brands and regular styles (`@fortawesome/fontawesome-free/svgs`),
 * deduplicated and sorted. The one list both sides read: the template's suggestions
 * (`iconNames()` in `components/icon-library.ts`) and the web editor's autocomplete, which runs
 * in the browser and cannot list the packages' folders. Kept as one string split on load (smaller
 * than an array literal). `control-plane/test/dashboard-app/editor-extensions-catalogue.test.ts`
 * fails when an upgrade of either package adds or removes an icon; run it with
 * `UPDATE_ICON_NAMES=1` to rewrite this file.
 */
const TEXT = `
0 1 11ty 2 3 4 42-group 5 500px 6 7 8 9 a a-arrow-down a-arrow-up a-large-small a11y-project
accessibility accessible-icon accusoft activity activity-square ad add address-book address-card
adjust adn adversal affiliatetheme air-freshener air-vent airbnb airplay alarm-check alarm-clock
alarm-clock-check alarm-clock-minus alarm-clock-off alarm-clock-plus alarm-minus alarm-plus
alarm-smoke album alert-circle alert-octagon alert-triangle algolia align-center
align-center-horizontal align-center-vertical align-end-horizontal align-end-vertical
align-horizontal-distribute-center align-horizontal-distribute-end align-horizontal-distribute-start
align-horizontal-justify-center align-horizontal-justify-end align-horizontal-justify-start
align-horizontal-space-around align-horizontal-space-between align-justify align-left align-right
align-start-horizontal align-start-vertical align-vertical-distribute-center
align-vertical-distribute-end align-vertical-distribute-start align-vertical-justify-center
align-vertical-justify-end align-vertical-justify-start align-vertical-space-around
align-vertical-space-between alipay allergies amazon amazon-pay ambulance
american-sign-language-interpreting amilia ampersand ampersands amphora anchor anchor-circle-check
anchor-circle-exclamation anchor-circle-xmark anchor-lock android angellist angle angle-double-down
angle-double-left angle-double-right angle-double-up angle-down angle-left angle-right angle-up
angles-down angles-left angles-right angles-up angry angrycreative angular ankh annoyed antenna
anvil aperture app-store app-store-ios app-window app-window-mac apper apple apple-alt apple-pay
apple-whole aquarius arch-linux archive archive-restore archive-x archway area-chart aries armchair
armenian-dram arrow-alt-circle-down arrow-alt-circle-left arrow-alt-circle-right arrow-alt-circle-up
arrow-big-down arrow-big-down-dash arrow-big-left arrow-big-left-dash arrow-big-right
arrow-big-right-dash arrow-big-up arrow-big-up-dash arrow-circle-down arrow-circle-left
arrow-circle-right arrow-circle-up arrow-down arrow-down-0-1 arrow-down-01 arrow-down-1-0
arrow-down-1-9 arrow-down-10 arrow-down-9-1 arrow-down-a-z arrow-down-az arrow-down-circle
arrow-down-from-line arrow-down-left arrow-down-left-from-circle arrow-down-left-from-square
arrow-down-left-square arrow-down-long arrow-down-narrow-wide arrow-down-right
arrow-down-right-from-circle arrow-down-right-from-square arrow-down-right-square
arrow-down-short-wide arrow-down-square arrow-down-to-dot arrow-down-to-line arrow-down-up
arrow-down-up-across-line arrow-down-up-lock arrow-down-wide-narrow arrow-down-wide-short
arrow-down-z-a arrow-down-za arrow-left arrow-left-circle arrow-left-from-line arrow-left-long
arrow-left-right arrow-left-rotate arrow-left-square arrow-left-to-line arrow-pointer arrow-right
arrow-right-arrow-left arrow-right-circle arrow-right-from-bracket arrow-right-from-file
arrow-right-from-line arrow-right-left arrow-right-long arrow-right-rotate arrow-right-square
arrow-right-to-bracket arrow-right-to-city arrow-right-to-file arrow-right-to-line arrow-rotate-back
arrow-rotate-backward arrow-rotate-forward arrow-rotate-left arrow-rotate-right arrow-trend-down
arrow-trend-up arrow-turn-down arrow-turn-up arrow-up arrow-up-0-1 arrow-up-01 arrow-up-1-0
arrow-up-1-9 arrow-up-10 arrow-up-9-1 arrow-up-a-z arrow-up-az arrow-up-circle arrow-up-down
arrow-up-from-bracket arrow-up-from-dot arrow-up-from-ground-water arrow-up-from-line
arrow-up-from-water-pump arrow-up-left arrow-up-left-from-circle arrow-up-left-from-square
arrow-up-left-square arrow-up-long arrow-up-narrow-wide arrow-up-right arrow-up-right-dots
arrow-up-right-from-circle arrow-up-right-from-square arrow-up-right-square arrow-up-short-wide
arrow-up-square arrow-up-to-line arrow-up-wide-narrow arrow-up-wide-short arrow-up-z-a arrow-up-za
arrows arrows-alt arrows-alt-h arrows-alt-v arrows-down-to-line arrows-down-to-people arrows-h
arrows-left-right arrows-left-right-to-line arrows-rotate arrows-spin arrows-split-up-and-left
arrows-to-circle arrows-to-dot arrows-to-eye arrows-turn-right arrows-turn-to-dots arrows-up-down
arrows-up-down-left-right arrows-up-from-line arrows-up-to-line arrows-v artstation asl-interpreting
assistive-listening-systems asterisk asterisk-square astroid asymmetrik at at-sign atlas atlassian
atom audible audio-description audio-lines audio-lines-off audio-lines-x audio-waveform austral-sign
automobile autoprefixer avianex aviato avocado award aws axe axis-3-d axis-3d azerbaijani-manat b
baby baby-carriage backpack backspace backward backward-fast backward-step bacon bacteria bacterium
badge badge-alert badge-cent badge-check badge-dollar-sign badge-euro badge-help badge-indian-rupee
badge-info badge-japanese-yen badge-minus badge-percent badge-plus badge-pound-sterling
badge-question-mark badge-russian-ruble badge-swiss-franc badge-turkish-lira badge-x bag-shopping
baggage-claim bahai baht-sign balance-scale balance-scale-left balance-scale-right ball-wave balloon
ban ban-smoking banana band-aid bandage bandcamp bangladeshi-taka bangladeshi-taka-sign bank
banknote banknote-arrow-down banknote-arrow-up banknote-check banknote-x bar-chart bar-chart-2
bar-chart-3 bar-chart-4 bar-chart-big bar-chart-horizontal bar-chart-horizontal-big barcode barrel
bars bars-progress bars-staggered baseball baseball-ball baseball-bat-ball baseline basket-shopping
basketball basketball-ball bath bathtub battery battery-0 battery-2 battery-3 battery-4 battery-5
battery-car battery-charging battery-empty battery-full battery-half battery-low battery-medium
battery-plus battery-quarter battery-three-quarters battery-warning battle-net beaker bean bean-off
bed bed-double bed-pulse bed-single beef beef-off beer beer-mug-empty beer-off behance
behance-square belarusian-ruble bell bell-check bell-concierge bell-dot bell-electric bell-minus
bell-off bell-plus bell-ring bell-slash between-horizonal-end between-horizonal-start
between-horizontal-end between-horizontal-start between-vertical-end between-vertical-start
bezier-curve bgg bible biceps-flexed bicycle bike biking bilibili bimobject binary binoculars
biohazard bird birdhouse birthday-cake bitbucket bitcoin bitcoin-sign bity black-tie blackberry
blackboard blend blender blender-phone blind blinds blocks blog blogger blogger-b bluesky bluetooth
bluetooth-b bluetooth-connected bluetooth-off bluetooth-searching board-game-geek bold bolt
bolt-lightning bomb bone bone-fracture bong book book-a book-alert book-atlas book-audio book-bible
book-bookmark book-check book-copy book-dashed book-dead book-down book-headphones book-heart
book-image book-journal-whills book-key book-lock book-marked book-medical book-minus book-open
book-open-check book-open-reader book-open-text book-plus book-quran book-reader book-search
book-skull book-tanakh book-template book-text book-type book-up book-up-2 book-user book-x bookmark
bookmark-check bookmark-minus bookmark-off bookmark-plus bookmark-x boom-box bootstrap border-all
border-none border-style border-top-left bore-hole bot bot-message-square bot-off bots
bottle-droplet bottle-water bottle-wine bow-arrow bowl-food bowl-rice bowling-ball box box-archive
box-open box-select box-tissue boxes boxes-alt boxes-packing boxes-stacked braces brackets braille
brain brain-circuit brain-cog brain-off brave brave-reverse brazilian-real-sign bread-slice
brick-wall brick-wall-fire brick-wall-shield bridge bridge-circle-check bridge-circle-exclamation
bridge-circle-xmark bridge-lock bridge-water briefcase briefcase-business briefcase-clock
briefcase-conveyor-belt briefcase-medical briefcase-plus bring-to-front broadcast-tower broccoli
broom broom-ball broom-sparkles brush brush-cleaning btc bubbles bucket buffer bug bug-off bug-play
bug-slash bugs build-awesome building building-2 building-circle-arrow-right building-circle-check
building-circle-exclamation building-circle-xmark building-columns building-complex
building-complex-plus building-flag building-lock building-ngo building-shield building-un
building-user building-wheat bullhorn bullseye burger burn buromobelexperte burst bus bus-alt
bus-front bus-side bus-simple business-time buy-n-large buysellads c cab cable cable-car cake
cake-candles cake-slice calculator calendar calendar-1 calendar-alt calendar-arrow-down
calendar-arrow-up calendar-check calendar-check-2 calendar-chevrons-left calendar-chevrons-right
calendar-clock calendar-cog calendar-day calendar-days calendar-fold calendar-heart calendar-minus
calendar-minus-2 calendar-off calendar-plus calendar-plus-2 calendar-range calendar-search
calendar-sync calendar-times calendar-week calendar-x calendar-x-2 calendar-xmark calendars camera
camera-alt camera-off camera-retro camera-rotate campground can can-soda canadian-maple-leaf cancel
cancer candlestick-chart candy candy-cane candy-off cannabis cannabis-off capricorn capsules
captions captions-off car car-alt car-battery car-burst car-crash car-front car-on car-rear car-side
car-taxi-front car-tunnel caravan card-sim caret-down caret-left caret-right caret-square-down
caret-square-left caret-square-right caret-square-up caret-up carriage-baby carrot cart-arrow-down
cart-flatbed cart-flatbed-suitcase cart-plus cart-shopping carton carton-off case-lower
case-sensitive case-upper cash-app cash-register cassette-tape cast castle cat cc-amazon-pay cc-amex
cc-apple-pay cc-diners-club cc-discover cc-jcb cc-mastercard cc-paypal cc-stripe cc-visa cctv
cctv-off cedi-sign cent-sign centercode centos certificate chain chain-broken chain-slash chair
chalkboard chalkboard-teacher chalkboard-user champagne-glasses charging-station chart-area
chart-bar chart-bar-big chart-bar-decreasing chart-bar-increasing chart-bar-stacked
chart-candlestick chart-column chart-column-big chart-column-decreasing chart-column-increasing
chart-column-stacked chart-diagram chart-gantt chart-line chart-network chart-no-axes-column
chart-no-axes-column-decreasing chart-no-axes-column-increasing chart-no-axes-combined
chart-no-axes-gantt chart-pie chart-scatter chart-simple chart-spline check check-check check-circle
check-circle-2 check-double check-line check-square check-square-2 check-to-slot cheese chef-hat
cherry chess chess-bishop chess-board chess-king chess-knight chess-pawn chess-queen chess-rook
chevron-circle-down chevron-circle-left chevron-circle-right chevron-circle-up chevron-down
chevron-down-circle chevron-down-square chevron-first chevron-last chevron-left chevron-left-circle
chevron-left-square chevron-right chevron-right-circle chevron-right-square chevron-up
chevron-up-circle chevron-up-square chevrons-down chevrons-down-up chevrons-left chevrons-left-right
chevrons-left-right-ellipsis chevrons-right chevrons-right-left chevrons-up chevrons-up-down child
child-combatant child-dress child-reaching child-rifle children chrome chromecast church cigarette
cigarette-off circle circle-alert circle-arrow-down circle-arrow-left circle-arrow-out-down-left
circle-arrow-out-down-right circle-arrow-out-up-left circle-arrow-out-up-right circle-arrow-right
circle-arrow-up circle-check circle-check-big circle-chevron-down circle-chevron-left
circle-chevron-right circle-chevron-up circle-chevrons-down circle-chevrons-left
circle-chevrons-right circle-chevrons-up circle-dashed circle-dashed-check circle-divide
circle-dollar-sign circle-dollar-to-slot circle-dot circle-dot-dashed circle-down circle-ellipsis
circle-equal circle-euro circle-exclamation circle-fading-arrow-up circle-fading-play
circle-fading-plus circle-gauge circle-h circle-half-stroke circle-help circle-info circle-left
circle-minus circle-nodes circle-notch circle-off circle-parking circle-parking-off circle-pause
circle-percent circle-pile circle-play circle-plus circle-pound-sterling circle-power
circle-question circle-question-mark circle-radiation circle-right circle-slash circle-slash-2
circle-slashed circle-small circle-star circle-stop circle-up circle-user circle-user-round circle-x
circle-xmark circle-zulip circuit-board citrus city clapperboard claude clef-alto clef-bass
clef-treble clinic-medical clipboard clipboard-check clipboard-clock clipboard-copy clipboard-edit
clipboard-list clipboard-minus clipboard-paste clipboard-pen clipboard-pen-line clipboard-plus
clipboard-question clipboard-signature clipboard-type clipboard-user clipboard-x clock clock-1
clock-10 clock-11 clock-12 clock-2 clock-3 clock-4 clock-5 clock-6 clock-7 clock-8 clock-9
clock-alert clock-arrow-down clock-arrow-left clock-arrow-right clock-arrow-up clock-check
clock-fading clock-four clock-plus clock-rotate-left clone close closed-caption closed-captioning
closed-captioning-slash cloud cloud-alert cloud-arrow-down cloud-arrow-up cloud-backup cloud-bolt
cloud-check cloud-cog cloud-download cloud-download-alt cloud-drizzle cloud-fog cloud-hail
cloud-lightning cloud-meatball cloud-moon cloud-moon-rain cloud-off cloud-rain cloud-rain-wind
cloud-showers-heavy cloud-showers-water cloud-snow cloud-sun cloud-sun-rain cloud-sync cloud-upload
cloud-upload-alt cloudflare cloudscale cloudsmith cloudversify cloudy clover club cmplid cny
cocktail code code-2 code-branch code-commit code-compare code-fork code-merge code-pull-request
code-square code-xml codeberg codepen codiepie coffee cog cogs coins colon-sign columns columns-2
columns-3 columns-3-cog columns-4 columns-settings combine command comment comment-alt
comment-dollar comment-dots comment-medical comment-nodes comment-slash comment-sms commenting
comments comments-dollar compact-disc compass compass-drafting component compress compress-alt
compress-arrows-alt computer computer-mouse concierge-bell cone confluence connectdevelop
construction contact contact-2 contact-book contact-card contact-round container contao contrast
cookie cookie-bite cooking-pot copilot copy copy-check copy-minus copy-plus copy-slash copy-x
copyleft copyright corner-down-left corner-down-right corner-left-down corner-left-up
corner-right-down corner-right-up corner-up-left corner-up-right cotton-bureau couch cow cpanel cpu
cpu-ai creative-commons creative-commons-by creative-commons-nc creative-commons-nc-eu
creative-commons-nc-jp creative-commons-nd creative-commons-pd creative-commons-pd-alt
creative-commons-remix creative-commons-sa creative-commons-sampling creative-commons-sampling-plus
creative-commons-share creative-commons-zero credit-card credit-card-alt credit-card-check
credit-card-minus credit-card-plus credit-card-reader credit-card-x critical-role croissant crop
crop-alt crop-simple cross crosshair crosshairs crow crown crutch cruzeiro-sign css css3 css3-alt
cube cubes cubes-stacked cuboid cup-soda cupcake curly-braces currency cut cutlery cuttlefish
cylinder d d-and-d d-and-d-beyond dailymotion dam dart-lang dashboard dashcube database
database-arrow-down database-arrow-up database-backup database-check database-minus database-plus
database-search database-x database-zap deaf deafness debian decimals-arrow-left
decimals-arrow-right dedent deezer delete delete-left delicious democrat deploydog deskpro desktop
desktop-alt dessert dev deviantart devpost dharmachakra dhl diagnoses diagram-next
diagram-predecessor diagram-project diagram-successor diameter diamond diamond-minus diamond-percent
diamond-plus diamond-turn-right diaspora dice dice-1 dice-2 dice-3 dice-4 dice-5 dice-6 dice-d20
dice-d6 dice-five dice-four dice-one dice-six dice-three dice-two dices diff digg digging
digital-ocean digital-tachograph directions disc disc-2 disc-3 disc-album discord discourse disease
display disqus divide divide-circle divide-square dizzy dna dna-off dochub dock docker dog dolibarr
dollar dollar-sign dolly dolly-box dolly-flatbed dome donate dong-sign donut door-closed
door-closed-cog door-closed-locked door-closed-package door-open door-stairwell dot dot-circle
dot-square dove down-left-and-up-right-to-center down-long download download-cloud draft2digital
drafting-compass dragon drama draw-polygon dribbble dribbble-square drill drivers-license drone
dropbox droplet droplet-off droplet-slash droplets drum drum-steelpan drumstick drumstick-bite
drupal dumbbell dumpster dumpster-fire dungeon duolingo dyalog e ear ear-deaf ear-listen ear-off
earlybirds earth earth-africa earth-america earth-americas earth-asia earth-europe earth-lock
earth-oceania ebay eclipse edge edge-legacy edit edit-2 edit-3 egg egg-fried egg-off eighth-note
eighth-notes eject elementor elevator eleventy ellipse ellipsis ellipsis-h ellipsis-v
ellipsis-vertical ello ember emirati-dirham empire engine envelope envelope-circle-check
envelope-open envelope-open-text envelope-square envelopes-bulk envira equal equal-approximately
equal-approximately-not equal-not equal-square equals eraser erlang ethereum ethernet ethernet-port
etsy eur euro euro-sign ev-charger evernote exchange exchange-alt exclamation exclamation-circle
exclamation-triangle expand expand-alt expand-arrows-alt expeditedssl explosion external-link
external-link-alt external-link-square external-link-square-alt eye eye-closed eye-dashed
eye-dropper eye-dropper-empty eye-low-vision eye-off eye-slash eyedropper f face-angry face-dizzy
face-expressionless face-flushed face-frown face-frown-open face-grimace face-grin face-grin-beam
face-grin-beam-sweat face-grin-hearts face-grin-squint face-grin-squint-tears face-grin-stars
face-grin-tears face-grin-tongue face-grin-tongue-squint face-grin-tongue-wink face-grin-wide
face-grin-wink face-grinning face-kiss face-kiss-beam face-kiss-wink-heart face-laugh
face-laugh-beam face-laugh-squint face-laugh-wink face-meh face-meh-blank face-neutral
face-rolling-eyes face-sad-cry face-sad-tear face-slightly-frowning face-slightly-smiling
face-slightly-smiling-plus face-smile face-smile-beam face-smile-wink face-surprise face-tired
facebook facebook-f facebook-messenger facebook-square factory fan fantasy-flight-games
fast-backward fast-forward faucet faucet-drip fax feather feather-alt feather-pointed fedex
fediverse fedora feed female fence ferris-wheel ferry fighter-jet figma file file-alt file-archive
file-arrow-down file-arrow-up file-audio file-audio-2 file-axis-3-d file-axis-3d file-badge
file-badge-2 file-bar-chart file-bar-chart-2 file-box file-braces file-braces-corner
file-chart-column file-chart-column-increasing file-chart-line file-chart-pie file-check
file-check-2 file-check-corner file-circle-check file-circle-exclamation file-circle-minus
file-circle-plus file-circle-question file-circle-xmark file-clipboard file-clock file-code
file-code-2 file-code-corner file-cog file-cog-2 file-contract file-csv file-diff file-digit
file-down file-download file-edit file-excel file-exclamation-point file-export file-fragment
file-half-dashed file-headphone file-heart file-image file-import file-input file-invoice
file-invoice-dollar file-json file-json-2 file-key file-key-2 file-line-chart file-lines file-lock
file-lock-2 file-medical file-medical-alt file-minus file-minus-2 file-minus-corner file-music
file-output file-pdf file-pen file-pen-line file-pie-chart file-play file-plus file-plus-2
file-plus-corner file-powerpoint file-prescription file-question file-question-mark file-scan
file-search file-search-2 file-search-corner file-shield file-signal file-signature file-sliders
file-spreadsheet file-stack file-symlink file-terminal file-text file-type file-type-2
file-type-corner file-up file-upload file-user file-video file-video-2 file-video-camera file-volume
file-volume-2 file-warning file-waveform file-word file-x file-x-2 file-x-corner file-zipper files
files-pinwheel fill fill-drip film film-alt film-simple filter filter-circle-dollar
filter-circle-xmark filter-x fingerprint fingerprint-pattern fire fire-alt fire-burner
fire-extinguisher fire-flame-curved fire-flame-simple firefox firefox-browser first-aid first-order
first-order-alt firstdraft fish fish-fins fish-off fish-symbol fishing-hook fishing-rod fist-raised
flag flag-checkered flag-off flag-triangle-left flag-triangle-right flag-usa flame flame-kindling
flashlight flashlight-off flask flask-conical flask-conical-off flask-round flask-vial flickr
flip-horizontal flip-horizontal-2 flip-vertical flip-vertical-2 flipboard floppy-disk florin-sign
flower flower-2 flushed flutter fly focus fold-horizontal fold-vertical folder folder-archive
folder-blank folder-bookmark folder-check folder-clock folder-closed folder-code folder-cog
folder-cog-2 folder-dot folder-down folder-edit folder-git folder-git-2 folder-heart folder-input
folder-kanban folder-key folder-lock folder-minus folder-open folder-open-dot folder-output
folder-pen folder-plus folder-root folder-search folder-search-2 folder-symlink folder-sync
folder-tree folder-up folder-user folder-users folder-x folders font font-awesome font-awesome-alt
font-awesome-flag font-awesome-logo-full fonticons fonticons-fi football football-ball footprints
forgejo fork-knife fork-knife-crossed forklift form form-input fort-awesome fort-awesome-alt
forumbee forward forward-fast forward-step foursquare frame franc-sign free-code-camp freebsd frog
frown frown-open fuel fulcrum fullscreen function-square funnel funnel-dollar funnel-plus funnel-x
futbol futbol-ball g galactic-republic galactic-senate galaxy gallery-horizontal
gallery-horizontal-end gallery-thumbnails gallery-vertical gallery-vertical-end gamepad gamepad-2
gamepad-directional gantt-chart gantt-chart-square gap-horizontal gap-vertical gas-pump gauge
gauge-circle gauge-high gauge-med gauge-simple gauge-simple-high gauge-simple-med gavel gbp gear
gears gem gemini genderless georgian-lari germ germ-off get-pocket gg gg-circle ghost gift gifts git
git-alt git-branch git-branch-minus git-branch-plus git-commit git-commit-horizontal
git-commit-vertical git-compare git-compare-arrows git-fork git-graph git-merge git-merge-conflict
git-pull-request git-pull-request-arrow git-pull-request-closed git-pull-request-create
git-pull-request-create-arrow git-pull-request-draft git-square gitee github github-alt
github-square gitkraken gitlab gitlab-square gitter glass-cheers glass-martini glass-martini-alt
glass-water glass-water-droplet glass-whiskey glasses glide glide-g globaleaks globe globe-2
globe-africa globe-americas globe-asia globe-check globe-code globe-europe globe-lock globe-oceania
globe-off globe-x goal gofore golang golf-ball golf-ball-tee goodreads goodreads-g google
google-drive google-pay google-play google-plus google-plus-g google-plus-square google-scholar
google-wallet gopuram gpu grab graduation-cap grape graph-hub graph-star gratipay grav greater-than
greater-than-equal grid grid-2-x-2 grid-2-x-2-check grid-2-x-2-plus grid-2-x-2-x grid-2x2
grid-2x2-check grid-2x2-plus grid-2x2-x grid-3-x-3 grid-3x2 grid-3x3 grid-horizontal grid-vertical
grimace grin grin-alt grin-beam grin-beam-sweat grin-hearts grin-squint grin-squint-tears grin-stars
grin-tears grin-tongue grin-tongue-squint grin-tongue-wink grin-wink grip grip-horizontal grip-lines
grip-lines-vertical grip-vertical gripfire groceries group group-arrows-rotate grunt guarani-sign
guilded guitar guitar-electric gulp gun h h-square hacker-news hacker-news-square hackerrank
half-note ham hamburger hammer hamsa hand hand-back-fist hand-coins hand-dots hand-fist hand-grab
hand-heart hand-helping hand-holding hand-holding-dollar hand-holding-droplet hand-holding-hand
hand-holding-heart hand-holding-medical hand-holding-usd hand-holding-water hand-lizard hand-metal
hand-middle-finger hand-paper hand-peace hand-platter hand-point-down hand-point-left
hand-point-right hand-point-up hand-pointer hand-rock hand-scissors hand-sparkles hand-spock handbag
handcuffs handle-bottom-right hands hands-american-sign-language-interpreting hands-asl-interpreting
hands-bound hands-bubbles hands-clapping hands-helping hands-holding hands-holding-child
hands-holding-circle hands-praying hands-wash handshake handshake-alt handshake-alt-slash
handshake-angle handshake-simple handshake-simple-slash handshake-slash hanukiah hard-drive
hard-drive-download hard-drive-upload hard-hat hard-of-hearing hash hashnode hashtag hat-cowboy
hat-cowboy-side hat-glasses hat-hard hat-wizard haykal haze hd hdd hdmi-port head-side-cough
head-side-cough-slash head-side-mask head-side-virus header heading heading-1 heading-2 heading-3
heading-4 heading-5 heading-6 headphone-off headphones headphones-alt headphones-simple headset
heart heart-broken heart-circle-bolt heart-circle-check heart-circle-exclamation heart-circle-minus
heart-circle-plus heart-circle-xmark heart-crack heart-handshake heart-minus heart-music-camera-bolt
heart-off heart-plus heart-pulse heart-x heartbeat heater helicopter helicopter-symbol helmet-safety
helmet-un help-circle helping-hand heptagon hexagon hexagon-nodes hexagon-nodes-bolt highlighter
hiking hiking-stick hill-avalanche hill-rockslide hippo hips hire-a-helper history hive hockey-puck
hockey-stick holly-berry home home-alt home-lg home-lg-alt home-user hooli hop hop-off hornbill
horse horse-head hospital hospital-alt hospital-symbol hospital-user hospital-wide hot-air-balloon
hot-tub hot-tub-person hotdog hotel hotjar hourglass hourglass-1 hourglass-2 hourglass-3
hourglass-cog hourglass-empty hourglass-end hourglass-half hourglass-start house house-chimney
house-chimney-crack house-chimney-medical house-chimney-user house-chimney-window house-circle-check
house-circle-exclamation house-circle-xmark house-cog house-crack house-damage house-fire house-flag
house-flood-water house-flood-water-circle-arrow-right house-heart house-laptop house-lock
house-medical house-medical-circle-check house-medical-circle-exclamation house-medical-circle-xmark
house-medical-flag house-plug house-plus house-signal house-tsunami house-user house-wifi houses
houzz hryvnia hryvnia-sign html5 hubspot hugging-face hurricane i i-cursor ice-cream ice-cream-2
ice-cream-bowl ice-cream-cone icicles icons id-badge id-card id-card-alt id-card-clip
id-card-lanyard ideal igloo ils image image-down image-minus image-off image-play image-plus
image-portrait image-up image-upscale images imdb import inbox indent indent-decrease
indent-increase indian-rupee indian-rupee-sign industry infinity info info-circle innosoft inr
inspect inspection-panel instagram instagram-square instalod institution intercom internet-archive
internet-explorer invision ioxhost italic itch-io iteration-ccw iteration-cw itunes itunes-note
iv-bag j japanese-yen jar jar-wheat java jedi jedi-order jenkins jet-fighter jet-fighter-up jira
joget joint joomla journal-whills joystick jpy js js-square jsfiddle jug-detergent julia jxl k kaaba
kaggle kakao-talk kanban kanban-square kanban-square-dashed kayak kazakh-tenge key key-round
key-square keybase keyboard keyboard-music keyboard-off keycdn khanda kickstarter kickstarter-k
kip-sign kiss kiss-beam kiss-wink-heart kit-medical kitchen-set kiwi-bird ko-fi korvue krw
kubernetes l ladder-water lambda lamp lamp-ceiling lamp-desk lamp-floor lamp-wall-down lamp-wall-up
land-mine-on land-plot landmark landmark-alt landmark-dome landmark-flag language languages laptop
laptop-2 laptop-code laptop-file laptop-house laptop-medical laptop-minimal laptop-minimal-check
laravel lari-sign lasso lasso-select lastfm lastfm-square laugh laugh-beam laugh-squint laugh-wink
layer-arrow-down layer-arrow-up layer-group layers layers-2 layers-3 layers-arrow-down
layers-arrow-up layers-minus layers-plus layout layout-arrow-down layout-arrow-right
layout-dashboard layout-freeform layout-grid layout-grid-circles layout-list layout-panel-left
layout-panel-top layout-template leaf leafy-green leanpub lectern leetcode left-long left-right
legal lemon lens lens-concave lens-convex leo less less-than less-than-equal lets-encrypt
letter-spacing letter-text letterboxd letters level-down level-down-alt level-up level-up-alt libra
library library-big library-square life-buoy life-ring ligature lightbulb lightbulb-off lighthouse
line line-chart line-dot-bottom-vertical line-dot-left-horizontal line-dot-right-horizontal
line-dot-top-vertical line-height line-squiggle line-style lines-leaning link link-2 link-2-off
link-slash linkedin linkedin-in linktree linode linux lira-sign list list-1-2 list-alt list-check
list-checks list-chevrons-down-up list-chevrons-up-down list-clock list-collapse list-dots list-end
list-filter list-filter-plus list-indent-decrease list-indent-increase list-minus list-music
list-numeric list-ol list-ordered list-plus list-restart list-sort-ascending list-sort-descending
list-squares list-start list-todo list-tree list-ul list-video list-x litecoin-sign loader loader-2
loader-circle loader-pinwheel locate locate-fixed locate-off location location-arrow
location-crosshairs location-dot location-edit location-pin location-pin-lock lock lock-keyhole
lock-keyhole-open lock-open locust log-in log-out logs lollipop long-arrow-alt-down
long-arrow-alt-left long-arrow-alt-right long-arrow-alt-up long-arrow-down long-arrow-left
long-arrow-right long-arrow-up lotus low-vision luggage luggage-cart lumon lumon-drop lungs
lungs-virus lyft m m-square magento magic magic-wand-sparkles magnet magnifying-glass
magnifying-glass-arrow-right magnifying-glass-chart magnifying-glass-dollar
magnifying-glass-location magnifying-glass-minus magnifying-glass-plus mail mail-badge mail-bulk
mail-check mail-clock mail-dot mail-forward mail-minus mail-open mail-pen mail-plus mail-question
mail-question-mark mail-reply mail-reply-all mail-search mail-warning mail-x mailbox mailchimp mails
male manat-sign mandalorian map map-location map-location-dot map-marked map-marked-alt map-marker
map-marker-alt map-minus map-pin map-pin-check map-pin-check-inside map-pin-house map-pin-minus
map-pin-minus-inside map-pin-off map-pin-pen map-pin-plus map-pin-plus-inside map-pin-search
map-pin-x map-pin-x-inside map-pinned map-plus map-signs markdown marker mars mars-and-venus
mars-and-venus-burst mars-double mars-stroke mars-stroke-h mars-stroke-right mars-stroke-up
mars-stroke-v martini martini-glass martini-glass-citrus martini-glass-empty mask mask-face
mask-ventilator masks-theater mastodon matrix mattermost mattress-pillow maxcdn maximize maximize-2
mdb medal medapps medium medium-m medkit medrt meetup megaphone megaphone-off megaport meh meh-blank
meh-rolling-eyes memory memory-stick mendeley menorah menu menu-square mercury merge message
message-circle message-circle-check message-circle-code message-circle-dashed
message-circle-dashed-check message-circle-heart message-circle-more message-circle-off
message-circle-plus message-circle-question message-circle-question-mark message-circle-reply
message-circle-text message-circle-warning message-circle-x message-square message-square-check
message-square-code message-square-dashed message-square-diff message-square-dot
message-square-heart message-square-lock message-square-more message-square-off message-square-plus
message-square-quote message-square-reply message-square-share message-square-text
message-square-warning message-square-x messages-circle messages-square meta meteor metronome mic
mic-2 mic-audio-lines mic-off mic-signal mic-vocal microblog microchip microphone microphone-alt
microphone-alt-slash microphone-lines microphone-lines-slash microphone-slash microscope microsoft
microwave midi-port milestone milk milk-off mill-sign minimize minimize-2 mintbit minus minus-circle
minus-square mirror-rectangular mirror-round mitten mix mixcloud mixer mizuni mobile mobile-alt
mobile-android mobile-android-alt mobile-button mobile-phone mobile-retro mobile-screen
mobile-screen-button mobile-vibrate modx monero money-bill money-bill-1 money-bill-1-wave
money-bill-alt money-bill-transfer money-bill-trend-up money-bill-wave money-bill-wave-alt
money-bill-wheat money-bills money-check money-check-alt money-check-dollar monitor monitor-check
monitor-cloud monitor-cog monitor-dot monitor-down monitor-off monitor-pause monitor-pc monitor-play
monitor-smartphone monitor-speaker monitor-stop monitor-up monitor-x monument moon moon-star mop
mop-sparkles more-horizontal more-vertical mortar-board mortar-pestle mosque mosquito mosquito-net
motorbike motorcycle mound mountain mountain-city mountain-snow mountain-sun mouse mouse-left
mouse-off mouse-pointer mouse-pointer-2 mouse-pointer-2-off mouse-pointer-ban mouse-pointer-click
mouse-pointer-square-dashed mouse-right mouth mouth-off move move-3-d move-3d move-diagonal
move-diagonal-2 move-down move-down-left move-down-right move-horizontal move-left move-right
move-up move-up-left move-up-right move-vertical mug-hot mug-saucer multiply museum music music-2
music-3 music-4 n naira-sign napster navicon navigation navigation-2 navigation-2-off navigation-off
neos nepali-rupee network network-wired neuter newspaper nextcloud nfc nfc-directional nfc-symbol
nimblr node node-js non-binary not-equal notdef note-sticky notebook notebook-dot notebook-pen
notebook-tabs notebook-text notepad-text notepad-text-dashed notes-medical notion npm ns8 nut
nut-off nutritionix o object-group object-ungroup obs-studio obsidian octagon octagon-alert
octagon-minus octagon-pause octagon-x octopus-deploy odnoklassniki odnoklassniki-square odysee
oil-can oil-well old-republic om omega openai opencart openid openstreetmap opensuse opera
optin-monster option orbit orcid origami osi otter outdent p package package-2 package-check
package-minus package-open package-plus package-search package-x padlet page4 pagelines pager
paint-brush paint-bucket paint-roller paintbrush paintbrush-2 paintbrush-vertical palette palfed
pallet palmtree panda pandora panel-bottom panel-bottom-close panel-bottom-dashed
panel-bottom-inactive panel-bottom-open panel-left panel-left-close panel-left-dashed
panel-left-inactive panel-left-open panel-left-right-dashed panel-right panel-right-close
panel-right-dashed panel-right-inactive panel-right-open panel-top panel-top-bottom-dashed
panel-top-close panel-top-dashed panel-top-inactive panel-top-open panels-left-bottom
panels-left-right panels-right-bottom panels-top-bottom panels-top-left panorama paper-bag
paper-plane paperclip parachute-box paragraph parasol parentheses park parking parking-circle
parking-circle-off parking-meter parking-square parking-square-off party-popper passport
pastafarianism paste patreon pause pause-circle pause-octagon paw paw-print paypal pc-case peace pen
pen-alt pen-box pen-clip pen-fancy pen-line pen-nib pen-off pen-ruler pen-square pen-to-square
pen-tool pencil pencil-alt pencil-line pencil-off pencil-ruler pencil-sparkles pencil-square
pentagon people-arrows people-arrows-left-right people-carry people-carry-box people-group
people-line people-pulling people-robbery people-roof pepper-hot perbyte percent percent-circle
percent-diamond percent-square percentage perfume-bottle periscope person person-arrow-down-to-line
person-arrow-up-from-line person-biking person-booth person-breastfeeding person-burst person-cane
person-chalkboard person-circle-check person-circle-exclamation person-circle-minus
person-circle-plus person-circle-question person-circle-xmark person-digging person-dots-from-line
person-dress person-dress-burst person-drowning person-falling person-falling-burst
person-half-dress person-harassing person-hiking person-military-pointing person-military-rifle
person-military-to-person person-praying person-pregnant person-rays person-rifle person-running
person-shelter person-skating person-skiing person-skiing-nordic person-snowboarding person-standing
person-swimming person-through-window person-walking person-walking-arrow-loop-left
person-walking-arrow-right person-walking-dashed-line-arrow-right person-walking-luggage
person-walking-with-cane peseta-sign peso-sign phabricator phi philippine-peso phoenix-framework
phoenix-squadron phone phone-alt phone-call phone-flip phone-forwarded phone-incoming phone-log
phone-missed phone-off phone-outgoing phone-slash phone-square phone-square-alt phone-volume
photo-film photo-video php pi pi-square piano pickaxe picture-in-picture picture-in-picture-2
pie-chart pied-piper pied-piper-alt pied-piper-hat pied-piper-pp pied-piper-square piggy-bank
pilcrow pilcrow-left pilcrow-right pilcrow-square pill pill-bottle pills pin pin-off
ping-pong-paddle-ball pinterest pinterest-p pinterest-square pipette pisces pix pixelfed pixiv pizza
pizza-slice place-of-worship plane plane-arrival plane-circle-check plane-circle-exclamation
plane-circle-xmark plane-departure plane-landing plane-lock plane-slash plane-takeoff plane-up
plant-pot plant-wilt plate-wheat play play-circle play-off play-square playing-card playing-cards
playing-cards-fan playstation plug plug-2 plug-circle-bolt plug-circle-check plug-circle-exclamation
plug-circle-minus plug-circle-plus plug-circle-xmark plug-zap plug-zap-2 plus plus-circle plus-minus
plus-square pocket-knife podcast podium pointer pointer-off poll poll-h poo poo-bolt poo-storm poop
popcorn popsicle portrait postgresql pound-sign pound-sterling power power-circle power-off
power-square pray praying-hands prescription prescription-bottle prescription-bottle-alt
prescription-bottle-medical presentation print printer printer-3d printer-check printer-x procedures
product-hunt project-diagram projector proportions pump-medical pump-soap pushed puzzle puzzle-piece
pyramid python q qq qr-code qrcode question question-circle quidditch quidditch-broom-ball quinscape
quora quote quote-left quote-left-alt quote-right quote-right-alt quran r r-project rabbit radar
radiation radiation-alt radical radio radio-off radio-receiver radio-tower radius rainbow random
ranking-star raspberry-pi rat ratio ravelry react reacteurope readme rebel receipt receipt-cent
receipt-euro receipt-indian-rupee receipt-japanese-yen receipt-pound-sterling receipt-russian-ruble
receipt-swiss-franc receipt-text receipt-turkish-lira record-vinyl rectangle-ad rectangle-circle
rectangle-ellipsis rectangle-goggles rectangle-horizontal rectangle-list rectangle-times
rectangle-vertical rectangle-xmark recycle red-river reddit reddit-alien reddit-square redhat redo
redo-2 redo-alt redo-dot refresh refresh-ccw refresh-ccw-dot refresh-cw refresh-cw-off refrigerator
regex registered remove remove-format remove-formatting rendact renren reorder repeat repeat-1
repeat-2 repeat-off replace replace-all reply reply-all replyd republican researchgate resolving
restroom retweet rev rewind ribbon right-from-bracket right-left right-long right-to-bracket ring
rmb road road-barrier road-bridge road-circle-check road-circle-exclamation road-circle-xmark
road-lock road-spikes roblox-creator-studio robot robot-arm robot-vacuum rocket rocketchat
rocking-chair rockrms rod-asclepius rod-snake roller-coaster ror rose rotate rotate-3-d rotate-3d
rotate-back rotate-backward rotate-ccw rotate-ccw-clock rotate-ccw-key rotate-ccw-square rotate-cw
rotate-cw-clock rotate-cw-fading-clock rotate-cw-square rotate-forward rotate-left rotate-right
rouble route route-off router rows rows-2 rows-3 rows-4 rss rss-square rub ruble ruble-sign rug
rugby-ball ruler ruler-combined ruler-dimension-line ruler-horizontal ruler-vertical running rupee
rupee-sign rupiah-sign russian-ruble rust s sack-dollar sack-xmark sad-cry sad-tear safari
sagittarius sailboat salad salesforce sandwich sass satellite satellite-dish saudi-riyal save
save-all save-check save-off save-pen save-plus scale scale-3-d scale-3d scale-balanced
scale-unbalanced scale-unbalanced-flip scaleway scaling scan scan-barcode scan-box scan-eye
scan-face scan-heart scan-line scan-qr-code scan-search scan-square scan-text scatter-chart schlix
school school-2 school-circle-check school-circle-exclamation school-circle-xmark school-flag
school-lock scissors scissors-line-dashed scissors-square scissors-square-dashed-bottom scooter
scorpio scratch-blocks screen-share screen-share-off screenpal screw screwdriver screwdriver-wrench
scribd scroll scroll-text scroll-torah sd-card search search-alert search-check search-code
search-dollar search-location search-minus search-plus search-slash search-x searchengin section
seedling sellcast sellsy send send-horizonal send-horizontal send-to-back separator-horizontal
separator-vertical septagon server server-cog server-crash server-nas server-off server-plus
servicestack settings settings-2 shapes share share-2 share-alt share-alt-square share-from-square
share-nodes share-square sheet sheet-plastic shekel shekel-sign shell shelving-unit sheqel
sheqel-sign shield shield-alert shield-alt shield-ban shield-blank shield-cat shield-check
shield-close shield-cog shield-cog-corner shield-dog shield-ellipsis shield-half shield-halved
shield-heart shield-house shield-keyhole shield-lock shield-minus shield-off shield-plus
shield-question shield-question-mark shield-user shield-virus shield-x ship ship-cargo ship-wheel
shipping-fast shirt shirtsinbulk shoe-prints shoelace shop shop-lock shop-slash shopify shopping-bag
shopping-basket shopping-cart shopping-cart-minus shopping-cart-plus shopware shovel shower
shower-head shredder shrimp shrimp-off shrink shrub shuffle shuttle-space shuttle-van sidebar
sidebar-close sidebar-open sigma sigma-square sign sign-hanging sign-in sign-in-alt sign-language
sign-out sign-out-alt signal signal-5 signal-high signal-low signal-medium signal-messenger
signal-perfect signal-zero signature signing signpost signpost-big signs-post sim-card simplybuilt
single-quote-left single-quote-right sink siren sistrix sitemap sith sitrox sixteenth-notes skating
sketch skiing skiing-nordic skip-back skip-forward skull skull-crossbones skyatlas skype slack
slack-hash slash slash-square sleigh slice sliders sliders-h sliders-horizontal sliders-vertical
slideshare smartphone smartphone-charging smartphone-nfc smartphone-user-round smile smile-beam
smile-plus smile-wink smog smoking smoking-ban sms snail snapchat snapchat-ghost snapchat-square
snowboarding snowflake snowman snowplow soap soap-dispenser-droplet soccer-ball socks sofa solana
solar-panel sort sort-alpha-asc sort-alpha-desc sort-alpha-down sort-alpha-down-alt sort-alpha-up
sort-alpha-up-alt sort-amount-asc sort-amount-desc sort-amount-down sort-amount-down-alt
sort-amount-up sort-amount-up-alt sort-asc sort-desc sort-down sort-numeric-asc sort-numeric-desc
sort-numeric-down sort-numeric-down-alt sort-numeric-up sort-numeric-up-alt sort-up soundcloud soup
sourcetree spa space space-awesome space-shuttle spade spaghetti-monster-flying sparkle sparkles
speakap speaker speaker-deck speech spell-check spell-check-2 spider spinner spiral spline
spline-pointer split split-square-horizontal split-square-vertical splotch spool spoon sport-shoe
spotify spotlight spray-can spray-can-sparkles sprout square square-activity square-arrow-down
square-arrow-down-left square-arrow-down-right square-arrow-left square-arrow-out-down-left
square-arrow-out-down-right square-arrow-out-up-left square-arrow-out-up-right square-arrow-right
square-arrow-right-enter square-arrow-right-exit square-arrow-up square-arrow-up-left
square-arrow-up-right square-asterisk square-behance square-binary square-bluesky square-bookmark
square-bottom-dashed-scissors square-build-awesome-stroke square-caret-down square-caret-left
square-caret-right square-caret-up square-centerline-dashed-horizontal
square-centerline-dashed-vertical square-chart-gantt square-check square-check-big
square-chevron-down square-chevron-left square-chevron-right square-chevron-up square-code
square-dashed square-dashed-bottom square-dashed-bottom-code square-dashed-kanban
square-dashed-mouse-pointer square-dashed-plus square-dashed-text square-dashed-top-solid
square-dashed-x square-dashed-x-corner square-deskpro square-dimensions square-divide square-dot
square-dribbble square-envelope square-equal square-exclamation-point square-facebook square-figma
square-font-awesome square-font-awesome-stroke square-full square-function square-gantt-chart
square-git square-github square-gitlab square-google-plus square-h square-hacker-news
square-instagram square-js square-kanban square-kickstarter square-lastfm square-letterboxd
square-library square-linkedin square-m square-menu square-minus square-mouse-pointer square-nfi
square-odnoklassniki square-off square-parking square-parking-off square-pause square-pen
square-percent square-person-confined square-phone square-phone-flip square-pi square-pied-piper
square-pilcrow square-pinterest square-play square-plus square-poll-horizontal square-poll-vertical
square-power square-radical square-reddit square-root-alt square-root-variable square-round-corner
square-rss square-scissors square-share-nodes square-sigma square-slash square-snapchat
square-sparkles square-split-horizontal square-split-vertical square-square square-stack square-star
square-steam square-stop square-terminal square-text square-threads square-tumblr square-twitter
square-up-right square-upwork square-user square-user-round square-viadeo square-vimeo square-virus
square-web-awesome square-web-awesome-stroke square-whatsapp square-x square-x-twitter square-xing
square-xmark square-youtube squares-exclude squares-intersect squares-subtract squares-unite
squarespace squircle squircle-dashed squirrel stack-exchange stack-overflow stackpath
staff-aesculapius staff-snake stairs stamp stapler star star-and-crescent star-check star-half
star-half-alt star-half-stroke star-minus star-of-david star-of-life star-off star-plus star-x stars
staylinked steam steam-square steam-symbol step-back step-backward step-forward sterling-sign
stethoscope sticker sticker-mule sticky-note sticky-note-check sticky-note-minus sticky-note-off
sticky-note-plus sticky-note-x sticky-notes stone stop stop-circle stopwatch stopwatch-20 store
store-alt store-alt-slash store-slash storybook strava stream street-view stretch-horizontal
stretch-vertical strikethrough stripe stripe-s stroopwafel stubber studiovinari stumbleupon
stumbleupon-circle subscript substack subtitles subtract subway suitcase suitcase-medical
suitcase-rolling summary sun sun-dim sun-medium sun-moon sun-plant-wilt sun-snow sunrise sunset
superpowers superscript supple supportnow surprise suse svelte swatch-book swatchbook swift swimmer
swimming-pool swiss-franc switch-camera sword swords symfony symfonycasts synagogue sync sync-alt
syringe t t-shirt table table-2 table-cells table-cells-column-lock table-cells-large
table-cells-merge table-cells-row-lock table-cells-row-unlock table-cells-split table-columns
table-columns-split table-config table-list table-of-contents table-properties table-rows-split
table-tennis table-tennis-paddle-ball tablet tablet-alt tablet-android tablet-button
tablet-screen-button tablet-smartphone tablets tachograph-digital tachometer tachometer-alt
tachometer-alt-average tachometer-alt-fast tachometer-average tachometer-fast tag tag-plus tag-x
tags tailwind-css tally-1 tally-2 tally-3 tally-4 tally-5 tanakh tangent tape target tarp
tarp-droplet tasks tasks-alt taurus taxi teamspeak teeth teeth-open telegram telegram-plane
telescope teletype television temperature-0 temperature-1 temperature-2 temperature-3 temperature-4
temperature-arrow-down temperature-arrow-up temperature-down temperature-empty temperature-full
temperature-half temperature-high temperature-low temperature-quarter temperature-three-quarters
temperature-up tencent-weibo tenge tenge-sign tent tent-arrow-down-to-line tent-arrow-left-right
tent-arrow-turn-left tent-arrows-down tent-tree tents terminal terminal-square tesla test-tube
test-tube-2 test-tube-diagonal test-tubes tex text text-align-center text-align-end
text-align-justify text-align-justify-center text-align-justify-end text-align-justify-start
text-align-start text-cursor text-cursor-input text-height text-initial text-quote text-search
text-select text-selection text-slash text-width text-wrap th th-large th-list the-red-yeti theater
theater-masks themeco themeisle thermometer thermometer-0 thermometer-1 thermometer-2 thermometer-3
thermometer-4 thermometer-empty thermometer-full thermometer-half thermometer-quarter
thermometer-snowflake thermometer-sun thermometer-three-quarters think-peaks threads threema
thumb-tack thumb-tack-slash thumbs-down thumbs-up thumbtack thumbtack-slash thunderstorm tic-tac-toe
ticket ticket-alt ticket-check ticket-minus ticket-percent ticket-plus ticket-simple ticket-slash
ticket-x tickets tickets-plane tidal tiktok timeline timer timer-off timer-reset times times-circle
times-rectangle times-square tint tint-slash tired toggle-left toggle-off toggle-on toggle-right
toilet toilet-paper toilet-paper-alt toilet-paper-blank toilet-paper-slash toilet-portable
toilets-portable tombstone tool-case toolbox tools tooth toothbrush toothbrush-sparkles tor-browser
torah torii-gate tornado torus touchpad touchpad-off towel-rack tower-broadcast tower-cell
tower-control tower-observation toy-brick tractor trade-federation trademark traffic-cone
traffic-light trailer train train-front train-front-tunnel train-subway train-track train-tram tram
tram-front transgender transgender-alt trash trash-2 trash-alt trash-arrow-up trash-can
trash-can-arrow-up trash-off trash-restore trash-restore-alt tree tree-city tree-deciduous tree-palm
tree-pine trees trello trending-down trending-up trending-up-down triangle triangle-alert
triangle-circle-square triangle-dashed triangle-exclamation triangle-right
triangles-centerline-dashed-horizontal triangles-centerline-dashed-vertical trophy trowel
trowel-bricks truck truck-arrow-right truck-droplet truck-electric truck-fast truck-field
truck-field-un truck-front truck-loading truck-medical truck-monster truck-moving truck-pickup
truck-plane truck-ramp-box try tshirt tty tube-lotion tumblr tumblr-square turkish-lira
turkish-lira-sign turn-down turn-up turntable turtle tv tv-2 tv-alt tv-minimal tv-minimal-play
twitch twitter twitter-square type type-outline typescript typo3 u uber ubuntu uikit ultralytics
ultralytics-hub ultralytics-yolo umbraco umbrella umbrella-beach umbrella-off uncharted underline
undo undo-2 undo-alt undo-dot unfold-horizontal unfold-vertical ungroup uniregistry unison unity
universal-access university unlink unlink-2 unlock unlock-alt unlock-keyhole unplug unreal-engine
unsorted unsplash untappd up-down up-down-left-right up-long up-right-and-down-left-from-center
up-right-from-square upload upload-cloud ups upwork usb usb-c-port usd user user-2 user-alt
user-alt-slash user-astronaut user-check user-check-2 user-circle user-circle-2 user-clock user-cog
user-cog-2 user-doctor user-edit user-friends user-gear user-graduate user-group user-injured
user-key user-large user-large-slash user-lock user-md user-minus user-minus-2 user-ninja user-nurse
user-pen user-plus user-plus-2 user-round user-round-arrow-left user-round-check user-round-cog
user-round-group user-round-key user-round-minus user-round-pen user-round-plus user-round-search
user-round-star user-round-x user-search user-secret user-shield user-slash user-square
user-square-2 user-star user-tag user-tie user-times user-x user-x-2 user-xmark users users-2
users-between-lines users-cog users-collaboration users-gear users-line users-rays users-rectangle
users-round users-round-collaboration users-slash users-viewfinder usps ussunnah utensil-spoon
utensils utensils-crossed utility-pole v vaadin van van-shuttle variable vault vcard vector-polygon
vector-square vegan venetian-mask venmo venmo-v venus venus-and-mars venus-double venus-mars
verified vest vest-patches viacoin viadeo viadeo-square vial vial-circle-check vial-virus vials
viber vibrate vibrate-off video video-camera video-off video-slash videotape view vihara vim vimeo
vimeo-square vimeo-v vine virgo virus virus-covid virus-covid-slash virus-off virus-slash viruses
visual-studio vk vnv voicemail volcano volleyball volleyball-ball volume volume-1 volume-2
volume-control-phone volume-down volume-high volume-low volume-medium volume-mute volume-off
volume-times volume-up volume-x volume-xmark vote vote-yea vr-cardboard vsco vuejs w w3c
walkie-talkie walking wallet wallet-2 wallet-cards wallet-minimal wallpaper wand wand-2 wand-magic
wand-magic-sparkles wand-sparkles warehouse warning washing-machine watch watchman-monitoring water
water-ladder wave-square waves waves-arrow-down waves-arrow-up waves-horizontal waves-ladder
waves-vertical waypoints waze web-awesome webcam webcam-off webflow webhook webhook-off weebly weibo
weight weight-hanging weight-scale weight-tilde weixin whatsapp whatsapp-square wheat wheat-alt
wheat-awn wheat-awn-circle-exclamation wheat-off wheelchair wheelchair-alt wheelchair-move
whiskey-glass whistle whmcs whole-word wifi wifi-3 wifi-cog wifi-high wifi-lock wifi-low wifi-off
wifi-pen wifi-strong wifi-sync wifi-zero wikipedia-w wind wind-arrow-down wind-arrow-up window-close
window-maximize window-minimize window-restore windows wine wine-bottle wine-glass wine-glass-alt
wine-glass-empty wine-off wirsindhandwerk wix wizards-of-the-coast wodu wolf-pack-battalion won
won-sign wordpress wordpress-simple workflow worm wpbeginner wpexplorer wpforms wpressr wrap-text
wrench wrench-off wsh x x-circle x-line-top x-octagon x-ray x-square x-twitter xbox xing xing-square
xmark xmark-circle xmark-square xmarks-lines xmpp xrp xrpl y y-combinator yahoo yammer yandex
yandex-international yarn yelp yen yen-sign yin-yang yoast youtube youtube-shorts youtube-square z
zap zap-off zhihu zodiac-aquarius zodiac-aries zodiac-cancer zodiac-capricorn zodiac-gemini
zodiac-leo zodiac-libra zodiac-ophiuchus zodiac-pisces zodiac-sagittarius zodiac-scorpio
zodiac-taurus zodiac-virgo zoom zoom-in zoom-out zulip
`;

/** Every icon name, sorted. */
export const ICON_NAMES: readonly string[] = TEXT.trim().split(/\s+/);
