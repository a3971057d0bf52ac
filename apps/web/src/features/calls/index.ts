import './texts';

export { CallView, type CallViewProps } from './components/call-view';
export { CallScreen, type CallScreenProps, type CallCharacter } from './components/call-screen';
export { CallPicker, type CallPickerItem } from './components/call-picker';
export { CallProblem, CallButton } from './components/call-problem';
export { callReducer, initialCallState, type CallViewState, type CallFailure, type CallEnd } from './call-state';
export { useCreateCallToken, createCallToken } from './api/create-call-token';
export { unavailableFailure } from './hooks/use-call';
